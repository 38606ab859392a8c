// Fault: ClickHouse stops for a minute while events keep coming, analytics enabled. Ingest is
// unaffected (every request 201, latency close to before the outage), and after ClickHouse is
// back every accepted event arrives exactly once (raw rows = distinct ids = accepted). This is
// a real 60 s outage plus the drainer's backoff (up to 60 s after ~1 minute of failures), so the
// test takes about 1.5 to 2.5 minutes.
import { randomBytes } from 'node:crypto'
import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client'
import { PGlite } from '@electric-sql/pglite'
import { createPgliteStore } from '@tis/storage-postgres'
import { describeWithClickHouse } from '@tis/test-utils/clickhouse-suite'
import { createClient as createHttpClient, SUITE_ENV } from '@tis/test-utils/server'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadConfig } from '../../src/config'
import { createLogger } from '../../src/logger'
import { createServer, type TisServer } from '../../src/server'
import { sleep } from './in-process'

const OUTAGE_MS = 60_000

describeWithClickHouse('fault: ClickHouse stopped for a minute during ingest', (clickhouse) => {
  const database = `fault_${randomBytes(5).toString('hex')}`
  let db: PGlite
  let ch: ClickHouseClient
  let server: TisServer
  let url = ''
  const logs: Array<Record<string, unknown>> = []

  beforeAll(async () => {
    db = await PGlite.create()
    const store = createPgliteStore(db, { analytics: true })
    await store.migrate()
    const config = loadConfig({
      ...SUITE_ENV,
      SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '1000000',
      SERVICE_ANALYTICS_ENABLED: 'true',
      SERVICE_ANALYTICS_URL: clickhouse().url,
      SERVICE_ANALYTICS_DATABASE: database,
      SERVICE_LOG_LEVEL: 'warn',
    })
    server = await createServer(config, {
      store,
      outbox: store.outbox,
      logger: createLogger({ level: 'warn', write: (line) => logs.push(JSON.parse(line)) }),
    })
    url = (await server.listen()).url
    ch = createClient({
      url: clickhouse().url,
      request_timeout: 5_000,
      log: { level: ClickHouseLogLevel.OFF },
    })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await ch?.close()
    await db?.close()
  })

  const rawCounts = async (projectId: string) => {
    const result = await ch.query({
      query: `SELECT count() AS n, uniqExact(id) AS u FROM ${database}.events_raw
              WHERE toString(project_id) = '${projectId}'`,
      format: 'JSONEachRow',
    })
    const [row] = await result.json<{ n: string; u: string }>()
    return { n: Number(row?.n ?? 0), u: Number(row?.u ?? 0) }
  }

  it('keeps ingest unaffected and delivers every event once after recovery', {
    timeout: 240_000,
  }, async () => {
    const { projectId, key } = await createHttpClient(url).projectWithKey()
    const accepted = new Set<string>()
    const samples: Array<{ at: number; ms: number; status: number }> = []
    let stopping = false
    const sender = async (w: number) => {
      for (let n = 0; !stopping; n++) {
        const t = performance.now()
        const res = await fetch(`${url}/api/v1/ingest_events`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ event: { event_type: 'log', message: `ch ${w}-${n}` } }),
        })
        const body = (await res.json()) as { id?: string }
        samples.push({ at: t, ms: performance.now() - t, status: res.status })
        if (res.status === 201 && body.id) accepted.add(body.id)
        await sleep(40)
      }
    }
    const senders = Array.from({ length: 4 }, (_, w) => sender(w))

    await sleep(5_000)
    const down = performance.now()
    await clickhouse().stop()
    const stopped = performance.now()
    await sleep(Math.max(0, OUTAGE_MS - (stopped - down)))
    const up = performance.now()
    await clickhouse().start()
    await sleep(3_000)
    stopping = true
    await Promise.all(senders)
    const acceptedAtStop = accepted.size

    // Every accepted event reaches the raw table once; the drainer may still be backing off.
    const deadline = performance.now() + 90_000
    let counts = await rawCounts(projectId).catch(() => ({ n: 0, u: 0 }))
    while (counts.n < acceptedAtStop && performance.now() < deadline) {
      await sleep(1_000)
      counts = await rawCounts(projectId).catch(() => counts)
    }
    const recovered = performance.now()
    await sleep(2_000) // anything sent twice would show up now
    counts = await rawCounts(projectId)

    const p = (xs: number[], q: number) =>
      xs.sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!
    const before = samples.filter((s) => s.at < down).map((s) => s.ms)
    const during = samples.filter((s) => s.at >= down && s.at < up).map((s) => s.ms)
    console.info(
      `clickhouse outage: ${samples.length} requests, ${acceptedAtStop} accepted; p50/p95/max ms ` +
        `before ${p(before, 0.5).toFixed(1)}/${p(before, 0.95).toFixed(1)}/${Math.max(...before).toFixed(0)}, ` +
        `during ${p(during, 0.5).toFixed(1)}/${p(during, 0.95).toFixed(1)}/${Math.max(...during).toFixed(0)}; ` +
        `all in ClickHouse ${Math.round((recovered - up) / 1000)} s after it was back: ${JSON.stringify(counts)}`,
    )
    expect(samples.filter((s) => s.status !== 201)).toEqual([])
    expect(during.length).toBeGreaterThan(300)
    expect(p(during, 0.95), 'p95 latency during the outage').toBeLessThan(
      Math.max(3 * p(before, 0.95), 50),
    )
    expect(Math.max(...during), 'slowest request during the outage').toBeLessThan(1_000)
    expect(counts).toEqual({ n: acceptedAtStop, u: acceptedAtStop })
    expect(logs.some((l) => l['msg'] === 'analytics export failing')).toBe(true)
  })
})
