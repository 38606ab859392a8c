import { fileURLToPath } from 'node:url'
import type { Harness } from '@tis/test-utils/server'
import { expect, it } from 'vitest'
import {
  createSentryProject,
  runSentryFixture,
  type SentryIds,
  traceShape,
  uuidOf,
} from './sentry-clients'

const APP = fileURLToPath(new URL('../fixtures/sentry-node-app.mjs', import.meta.url))

/** Runs the @sentry/node application against a fresh project's DSN; resolves what it reported. */
async function runSentryApp(harness: Harness) {
  const project = await createSentryProject(harness)
  const ids = await runSentryFixture<SentryIds & { flushed: boolean }>(project, process.execPath, [
    APP,
  ])
  expect(ids.flushed).toBe(true)
  return { ids, read: project.read, project }
}

/** Sentry's Node SDK, unchanged, against a real server: each kind of data read back. */
export function describeSentryNode(h: () => Harness) {
  it('stores an exception, a message, a transaction with its spans and a cron check-in pair', async () => {
    const { ids, read, project } = await runSentryApp(h())
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
    expect(await traceShape(project, ids.traceId)).toEqual([
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
