import { fileURLToPath } from 'node:url'
import { runScript } from '@tis/test-utils/run-script'
import { ADMIN_TOKEN, createClient, type Harness } from '@tis/test-utils/server'
import { expect, it } from 'vitest'

const APP = fileURLToPath(new URL('../fixtures/sentry-node-app.mjs', import.meta.url))

/** Runs the @sentry/node application against a fresh project's DSN; resolves what it reported. */
async function runSentryApp(harness: Harness) {
  const c = createClient(harness.url)
  const project = await c.createProject()
  const got = await c.api('GET', `/api/v1/projects/${project.id}`, { token: ADMIN_TOKEN })
  const { dsn, number } = got.body.project as { dsn: string; number: number }
  expect(dsn).toMatch(new RegExp(`^http://[0-9a-f]{32}@127\\.0\\.0\\.1:\\d+/${number}$`))
  const run = await runScript(process.execPath, [APP], { env: { DSN: dsn }, timeoutMs: 60_000 })
  expect(run.code, run.stderr).toBe(0)
  const ids = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
    errorId: string
    messageId: string
    traceId: string
    flushed: boolean
  }
  expect(ids.flushed).toBe(true)
  const read = async (path: string) => {
    const r = await c.api('GET', `/api/v1/projects/${project.id}${path}`, { token: ADMIN_TOKEN })
    expect(r.status, r.text).toBe(200)
    return r.body
  }
  return { ids, read, projectId: project.id }
}

const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`

/** Sentry's Node SDK, unchanged, against a real server: each kind of data read back. */
export function describeSentryNode(h: () => Harness) {
  it('stores an exception, a message, a transaction with its spans and a cron check-in pair', async () => {
    const { ids, read } = await runSentryApp(h())
    // The exception: an issue, its event with the frames innermost first.
    const { issues } = await read('/issues')
    const titles = issues.map((i: { title: string }) => i.title).sort()
    expect(titles).toEqual([
      "TypeError: Cannot read properties of undefined (reading 'id')",
      'cache warmed',
    ])
    const { event, frames } = await read(`/events/${uuidOf(ids.errorId)}`)
    expect(event).toMatchObject({
      event_type: 'error',
      level: 'error',
      environment: 'production',
      release: 'shop@1.4.2',
    })
    expect(event.context.exception.exception_class).toBe('TypeError')
    expect(event.context.tags).toMatchObject({ region: 'eu-west-1' })
    expect(event.context.user).toMatchObject({ id: 'u-42' })
    expect(frames[0]).toMatchObject({ function: 'loadOrder', lineno: expect.any(Number) })
    expect(frames[0].filename).toMatch(/sentry-node-app\.mjs$/)
    const message = await read(`/events/${uuidOf(ids.messageId)}`)
    expect(message.event).toMatchObject({ message: 'cache warmed', level: 'info' })
    // The transaction and its trace: the root server span and the db span under it.
    const { transactions } = await read('/transactions')
    expect(transactions).toEqual([
      expect.objectContaining({ name: 'GET /orders/:id', count: 1, error_count: 0 }),
    ])
    const trace = await read(`/traces/${ids.traceId}`)
    const spans = trace.spans.map((s: Record<string, unknown>) => [
      s['name'],
      s['kind'],
      s['depth'],
    ])
    expect(spans).toEqual([
      ['GET /orders/:id', 'server', 0],
      ['select * from orders', 'db', 1],
    ])
    // The check-ins: one monitor, healthy, with the interval of its schedule.
    const { monitors } = await read('/monitors')
    expect(monitors).toEqual([
      expect.objectContaining({
        slug: 'nightly-report',
        environment: 'production',
        status: 'ok',
        expected_interval_seconds: 300,
      }),
    ])
  }, 120_000)
}
