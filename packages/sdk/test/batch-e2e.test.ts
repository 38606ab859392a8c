import { randomUUID } from 'node:crypto'
import { createClient as createApi, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createCredentialSource } from '../src/credentials'
import { makeFetchTransport, type TransportRequest } from '../src/index'

// The SDK's batch sender against the real server's all-or-nothing batch endpoint (PGlite).
describe('batches against the real server', () => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPgliteHarness()
  }, 60_000)
  afterAll(() => harness?.close())

  /** A project, and a fetch transport sending one request at a time (queued records batch). */
  async function setup() {
    const { projectId, key } = await createApi(harness.url).projectWithKey()
    const logger = vi.fn()
    const transport = makeFetchTransport({
      baseUrl: harness.url,
      credentials: createCredentialSource(key, undefined),
      concurrency: 1,
      logger,
    })
    const stored = async () =>
      (
        await harness.query<{ message: string }>(
          'select message from events where project_id = $1 order by message',
          [projectId],
        )
      ).map((r) => r.message)
    return { transport, logger, stored }
  }
  const record = (message: string, extra: Record<string, unknown> = {}): TransportRequest => ({
    endpoint: 'ingest_events',
    body: JSON.stringify({
      event: { event_id: randomUUID(), event_type: 'log', message, ...extra },
    }),
  })

  it('counts a batch accepted (202) as sent, and its repeat as duplicates', async () => {
    const { transport, stored } = await setup()
    const records = ['a', 'b', 'c', 'd'].map((m) => record(m))
    for (const r of records) void transport.send(r)
    expect(await transport.flush(10_000)).toEqual({
      sent: 4,
      duplicates: 0,
      dropped: {},
      pending: 0,
    })
    // The same records again (a retry): the first alone (200), the rest in a batch (202).
    for (const r of records) void transport.send(r)
    expect(await transport.flush(10_000)).toEqual({
      sent: 4,
      duplicates: 4,
      dropped: {},
      pending: 0,
    })
    expect(await stored()).toEqual(['a', 'b', 'c', 'd'])
  })

  it('drops the invalid line of a rejected batch (422) and stores the others on a re-send', async () => {
    const { transport, logger, stored } = await setup()
    const results = [
      transport.send(record('first')),
      transport.send(record('kept 1')),
      transport.send(record('bad', { event_type: 'nope' })),
      transport.send(record('kept 2')),
    ]
    expect(await transport.flush(10_000)).toEqual({
      sent: 3,
      duplicates: 0,
      dropped: { rejected: 1 },
      pending: 0,
    })
    expect((await Promise.all(results)).map((r) => r.status)).toEqual([
      'sent',
      'sent',
      'dropped',
      'sent',
    ])
    expect(await stored()).toEqual(['first', 'kept 1', 'kept 2'])
    expect(logger).toHaveBeenCalledWith('batch line rejected', [
      expect.stringMatching(/^event_type is not included in the list/),
    ])
  })

  it('keeps a batch over the rate limit (429) whole and sends it after Retry-After', async () => {
    const { transport, stored } = await setup()
    // Take 24 of the suite's 25 units per hour: only one record fits now.
    for (let i = 0; i < 24; i++) void transport.send(record(`fill ${String(i).padStart(2, '0')}`))
    expect(await transport.flush(10_000)).toMatchObject({ sent: 24, dropped: {} })
    void transport.send(record('one'))
    void transport.send(record('two'))
    void transport.send(record('three'))
    // The first fits alone; the batch of two does not: refused whole, and waiting an hour is
    // more than maxRateLimitWaitMs, so both are dropped as rate_limited.
    expect(await transport.flush(10_000)).toEqual({
      sent: 1,
      duplicates: 0,
      dropped: { rate_limited: 2 },
      pending: 0,
    })
    expect((await stored()).filter((m) => !m.startsWith('fill'))).toEqual(['one'])
  })
})
