import { createClient as createApi, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Client, createClient } from '../src/index'

// Every capture against the real server on in-memory PGlite, read back with SQL.
describe('against the real server', () => {
  let harness: Harness
  let client: Client
  let projectId: string
  const statuses: (number | string)[] = []

  beforeAll(async () => {
    harness = await startPgliteHarness()
    const project = await createApi(harness.url).projectWithKey()
    projectId = project.projectId
    // Records each HTTP status the server answers, to prove every capture got its 201
    // (a batch's lines count one by one: a line stored new counts as its 201).
    const recordingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (String(input).endsWith('/batch')) {
        const { results } = (await response.clone().json()) as {
          results: { status: string; duplicate?: boolean }[]
        }
        statuses.push(
          ...results.map((r) => (r.status === 'accepted' && !r.duplicate ? 201 : r.status)),
        )
      } else statuses.push(response.status)
      return response
    }
    client = createClient({
      baseUrl: harness.url,
      apiKey: project.key,
      environment: 'e2e',
      release: '2.0.0',
      fetch: recordingFetch,
      autoFlush: false,
      // The session bodies are checked by src/session.test.ts; this suite reads back records.
      sessions: false,
    })
  }, 60_000)
  afterAll(async () => {
    await client?.close()
    await harness?.close()
  })

  async function flushAll() {
    const result = await client.flush(10_000)
    expect(result.dropped).toEqual({})
    expect(result.pending).toBe(0)
    return result
  }

  const payloadOf = async (table: string, id: string) => {
    const rows = await harness.query<{ payload: Record<string, unknown> }>(
      `select payload from ${table} where project_id = $1 and payload->>'event_id' = $2`,
      [projectId, id],
    )
    return rows
  }

  it('accepts every capture with 201 and stores it readable', async () => {
    const traceId = 'f'.repeat(32)
    const ids = {
      error: client.captureException(new TypeError('e2e failure', { cause: new Error('root') }), {
        fingerprint: 'e2e-fingerprint',
        traceId,
        userId: 7,
      }),
      log: client.captureMessage('e2e log', { level: 'warn', requestId: 'req-e2e' }),
      metric: client.captureMetric('db.query', 12.5, { unit: 'ms', tags: { q: 'users' } }),
      transaction: client.captureTransaction('GET /e2e', 40, { status: 200 }),
      span: client.captureSpan('SELECT 1', 3, {
        traceId,
        kind: 'db',
        parentSpanId: 'a'.repeat(16),
      }),
      checkIn: client.checkIn('e2e-job', 'ok', { expectedIntervalSeconds: 60, durationMs: 5 }),
      deployment: client.recordDeployment({
        release: '2.0.0',
        repository: 'tis-dev/tis',
        commitSha: 'abcdef1234567',
        branch: 'main',
      }),
    }
    const result = await flushAll()
    expect(result.sent).toBe(7)
    expect(statuses).toEqual(Array(7).fill(201))

    for (const kind of ['error', 'log', 'metric', 'transaction'] as const) {
      const rows = await payloadOf('events', ids[kind])
      expect(rows, kind).toHaveLength(1)
    }
    const [error] = await payloadOf('events', ids.error)
    expect(error!.payload).toMatchObject({
      event_type: 'error',
      message: 'e2e failure',
      fingerprint: 'e2e-fingerprint',
      environment: 'e2e',
      release: '2.0.0',
      trace_id: traceId,
      context: { exception: { class: 'TypeError', cause: { message: 'root' } } },
    })
    const [metric] = await payloadOf('events', ids.metric)
    expect(metric!.payload).toMatchObject({
      context: { value: 12.5, unit: 'ms', tags: { q: 'users' } },
    })
    expect(await payloadOf('spans', ids.span)).toHaveLength(1)
    expect(await payloadOf('check_ins', ids.checkIn)).toHaveLength(1)
    expect(await payloadOf('deployments', ids.deployment)).toHaveLength(1)
  }, 30_000)

  it('meets the real rate limit: the first 25 are accepted, the rest dropped and counted', async () => {
    const project = await createApi(harness.url).projectWithKey()
    const limited = createClient({
      baseUrl: harness.url,
      apiKey: project.key,
      autoFlush: false,
      transportOptions: { concurrency: 1 },
    })
    // The suite's cap is 25 per hour. The first capture goes alone; the 29 queued behind it leave
    // as one batch, more lines than a whole window: 413, so they go one by one. 24 fit; the
    // server's Retry-After for the rest exceeds the default 60 s wait, so they are dropped.
    const ids = Array.from({ length: 30 }, (_, i) => limited.captureMessage(`burst ${i}`))
    const result = await limited.close(10_000)
    expect(result).toEqual({ sent: 25, duplicates: 0, dropped: { rate_limited: 5 }, pending: 0 })
    const rows = await harness.query<{ n: number }>(
      'select count(*)::int as n from events where project_id = $1',
      [project.projectId],
    )
    expect(rows[0]!.n).toBe(25)
    expect(new Set(ids).size).toBe(30)
  }, 30_000)

  it('reports error check-ins through withMonitor', async () => {
    await expect(
      client.withMonitor('e2e-failing-job', () => Promise.reject(new Error('job failed'))),
    ).rejects.toThrow('job failed')
    await flushAll()
    const rows = await harness.query<{ payload: Record<string, unknown> }>(
      `select payload from check_ins where project_id = $1 and payload->>'slug' = 'e2e-failing-job'`,
      [projectId],
    )
    expect(rows.map((r) => r.payload['status'])).toEqual(['error'])
  }, 30_000)
})
