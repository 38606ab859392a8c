// The server with the analytics store enabled, against a real ClickHouse server started by the
// test: rows accepted over HTTP reach both raw tables and both rollups exactly once, through an
// outage; health reports readiness and the missing tables; nothing accepted before enabling is
// backfilled.

import { randomBytes } from 'node:crypto'
import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client'
import { PGlite } from '@electric-sql/pglite'
import { createPgliteStore } from '@tis/storage-postgres'
import { describeWithClickHouse } from '@tis/test-utils/clickhouse-suite'
import { type Client, createClient as createHttpClient, SUITE_ENV } from '@tis/test-utils/server'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadConfig } from '../src/config'
import { createLogger } from '../src/logger'
import { createServer, type TisServer } from '../src/server'

describeWithClickHouse('server with the analytics store', (clickhouse) => {
  const database = `e2e_${randomBytes(5).toString('hex')}`
  let db: PGlite
  let ch: ClickHouseClient
  const logs: Record<string, unknown>[] = []
  const servers: TisServer[] = []

  beforeAll(async () => {
    db = await PGlite.create()
    ch = createClient({
      url: clickhouse().url,
      request_timeout: 5_000,
      log: { level: ClickHouseLogLevel.OFF },
    })
  }, 60_000)
  afterAll(async () => {
    for (const s of servers) await s.close()
    await ch?.close()
    await db?.close()
  })

  /** A server on the shared PGlite database; analytics on or off. */
  async function start(analytics: boolean) {
    const store = createPgliteStore(db, { analytics })
    await store.migrate()
    const config = loadConfig({
      ...SUITE_ENV,
      SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '100000',
      SERVICE_ANALYTICS_ENABLED: String(analytics),
      SERVICE_ANALYTICS_URL: clickhouse().url,
      SERVICE_ANALYTICS_DATABASE: database,
      SERVICE_ANALYTICS_FAILURE_THROTTLE_SECONDS: '1',
      SERVICE_LOG_LEVEL: 'warn',
    })
    const server = await createServer(config, {
      store,
      outbox: store.outbox,
      analyticsDrainIntervalMs: 100,
      logger: createLogger({ level: 'warn', write: (line) => logs.push(JSON.parse(line)) }),
    })
    servers.push(server)
    const { url } = await server.listen()
    return { server, http: createHttpClient(url), url }
  }

  async function rows<T>(query: string): Promise<T[]> {
    const result = await ch.query({ query, format: 'JSONEachRow' })
    return result.json<T>()
  }

  async function ingestAll(http: Client, key: string, events: object[]) {
    const ids: string[] = []
    for (const event of events) {
      const r = await http.ingest('/api/v1/ingest_events', key, { event })
      expect(r.status).toBe(201)
      ids.push(r.body.id as string)
    }
    return ids
  }

  async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 30_000) {
    const deadline = Date.now() + ms
    for (;;) {
      const value = await read().catch(() => undefined as T)
      if (value !== undefined && done(value)) return value
      if (Date.now() > deadline) return value
      await new Promise((r) => setTimeout(r, 200))
    }
  }

  const countIds = async (table: string, ids: readonly string[]) => {
    const list = ids.map((id) => `'${id}'`).join(',')
    const [row] = await rows<{ n: string; u: string }>(
      `SELECT count() AS n, uniqExact(id) AS u FROM ${database}.${table} WHERE toString(id) IN (${list})`,
    )
    return { n: Number(row?.n ?? 0), u: Number(row?.u ?? 0) }
  }

  let key = ''
  let projectId = ''
  let before: string[] = []
  let url = ''

  it('does not export rows accepted before the analytics store was enabled', async () => {
    const off = await start(false)
    const project = await off.http.projectWithKey()
    key = project.key
    projectId = project.projectId
    before = await ingestAll(off.http, key, [
      { event_type: 'log', message: 'before 1' },
      { event_type: 'log', message: 'before 2' },
    ])
    const health = await off.http.api('GET', '/health/analytics_store')
    expect(health.status).toBe(200)
    expect(health.body).toEqual({ status: 'disabled', enabled: false, ready: false })
    await off.server.close()
    servers.splice(servers.indexOf(off.server), 1)

    const on = await start(true)
    url = on.url
    const ready = await on.http.api('GET', '/health/analytics_store')
    expect(ready.status).toBe(200)
    expect(ready.body).toMatchObject({ status: 'ok', enabled: true, ready: true })
    expect(await countIds('events_raw', before)).toEqual({ n: 0, u: 0 })
  })

  it('exports events and spans to the raw tables and both rollups', async () => {
    const http = createHttpClient(url)
    const events = await ingestAll(http, key, [
      { event_type: 'error', message: 'Boom', level: 'error', environment: 'prod' },
      { event_type: 'log', message: 'hello', level: 'info' },
      { event_type: 'log', message: 'again', level: 'info' },
    ])
    const trace = 'c'.repeat(32)
    const spans = await ingestAll(http, key, [
      {
        event_type: 'span',
        name: 'GET /a',
        kind: 'server',
        trace_id: trace,
        span_id: '1'.repeat(16),
        started_at: '2026-11-22T10:00:00.000Z',
        duration_ms: 100,
        context: { route: '/a' },
      },
      {
        event_type: 'span',
        name: 'GET /a',
        kind: 'server',
        trace_id: trace,
        span_id: '2'.repeat(16),
        started_at: '2026-11-22T10:00:10.000Z',
        duration_ms: 300,
        context: { route: '/a' },
      },
      {
        event_type: 'span',
        name: 'db',
        kind: 'db',
        trace_id: trace,
        span_id: '3'.repeat(16),
        parent_span_id: '1'.repeat(16),
        started_at: '2026-11-22T10:00:00.010Z',
        duration_ms: 5,
      },
    ])
    const arrived = await eventually(
      () => countIds('events_raw', events),
      (c) => c.n === 3,
    )
    expect(arrived).toEqual({ n: 3, u: 3 })
    expect(
      await eventually(
        () => countIds('spans_raw', spans),
        (c) => c.n === 3,
      ),
    ).toEqual({
      n: 3,
      u: 3,
    })
    const [error] = await rows<Record<string, unknown>>(
      `SELECT * FROM ${database}.events_raw WHERE toString(id) = '${events[0]}'`,
    )
    expect(error).toMatchObject({ event_type: 'error', level: 'error', environment: 'prod' })
    const levels = await rows<{ event_type: string; level: string; n: string }>(
      `SELECT event_type, level, sum(count) AS n FROM ${database}.events_1m
       WHERE toString(project_id) = '${projectId}' GROUP BY event_type, level ORDER BY event_type, level`,
    )
    expect(levels.map((l) => [l.event_type, l.level, Number(l.n)])).toEqual([
      ['error', 'error', 1],
      ['log', 'info', 2],
    ])
    // Read until it shows: once (CI, 2026-12-03) the rollup was still empty right after
    // spans_raw showed all three spans.
    const requests = await eventually(
      () =>
        rows<{ route: string; n: string; avg: number }>(
          `SELECT route, countMerge(count) AS n, avgMerge(avg_duration_ms) AS avg
           FROM ${database}.request_spans_1m WHERE toString(project_id) = '${projectId}'
           GROUP BY route`,
        ),
      (r) => r.length > 0,
      10_000,
    )
    expect(requests.map((r) => [r.route, Number(r.n), Number(r.avg)])).toEqual([['/a', 2, 200]])
    const metrics = await (await fetch(`${url}/metrics`)).text()
    expect(metrics).toMatch(/^tis_analytics_outbox_depth 0$/m)
    expect(metrics).toMatch(/^tis_analytics_exported_total [1-9]\d*$/m)
  })

  it('answers 503 with the exact missing table', async () => {
    const http = createHttpClient(url)
    await ch.command({ query: `DROP TABLE ${database}.request_spans_1m_mv` })
    const r = await http.api('GET', '/health/analytics_store')
    expect(r.status).toBe(503)
    expect(r.body).toMatchObject({
      status: 'degraded',
      enabled: true,
      ready: false,
      missing_tables: ['request_spans_1m_mv'],
    })
    expect(r.body.queue).toMatchObject({ depth: expect.any(Number) })
    // `tis analytics migrate` (here: the runtime's migrate) recreates it.
    const server = servers.at(-1)!
    await server.analytics.migrate()
    expect((await http.api('GET', '/health/analytics_store')).status).toBe(200)
  })

  it('queues through a ClickHouse outage and delivers every row exactly once after it', async () => {
    const http = createHttpClient(url)
    logs.length = 0
    await clickhouse().stop()
    const during = await ingestAll(
      http,
      key,
      Array.from({ length: 40 }, (_, i) => ({ event_type: 'log', message: `outage ${i}` })),
    )
    const down = await http.api('GET', '/health/analytics_store')
    expect(down.status).toBe(503)
    expect(down.body).toMatchObject({ reachable: false })
    expect(down.body.queue.depth).toBeGreaterThanOrEqual(1)
    await new Promise((r) => setTimeout(r, 2_500))
    await clickhouse().start()
    const arrived = await eventually(
      () => countIds('events_raw', during),
      (c) => c.n >= 40,
      60_000,
    )
    expect(arrived).toEqual({ n: 40, u: 40 })
    const failures = logs.filter((l) => l['msg'] === 'analytics export failing')
    expect(failures.length).toBeGreaterThanOrEqual(1)
    // Throttled: at most one report per kind per second of outage (plus one per kind).
    const perKind = new Map<string, number>()
    for (const f of failures)
      perKind.set(String(f['kind']), (perKind.get(String(f['kind'])) ?? 0) + 1)
    for (const n of perKind.values()) expect(n).toBeLessThanOrEqual(8)
    const metrics = await (await fetch(`${url}/metrics`)).text()
    expect(metrics).toMatch(/^tis_analytics_export_failures_total [1-9]\d*$/m)
    expect(await countIds('events_raw', before)).toEqual({ n: 0, u: 0 })
  }, 90_000)
})
