import type { ClickHouseClient } from '@clickhouse/client'
import type { OutboxRecord } from '@tis/ingest'
import { describeWithClickHouse } from '@tis/test-utils/clickhouse-suite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ClickHouseAnalyticsStore,
  createClickHouseAnalyticsStore,
  featuresOf,
  requiredTableNames,
} from '../src/index'
import { rows, testClient, uniqueDatabase } from './support/clickhouse-client'
import { eventRowFixture, spanRowFixture } from './support/fixtures'

const event = (
  overrides: Parameters<typeof eventRowFixture>[0] = {},
  attempts = 0,
): Extract<OutboxRecord, { kind: 'event' }> => ({
  seq: '1',
  attempts,
  enqueuedAt: new Date(),
  kind: 'event',
  row: eventRowFixture(overrides),
})
const span = (
  overrides: Parameters<typeof spanRowFixture>[0] = {},
  attempts = 0,
): Extract<OutboxRecord, { kind: 'span' }> => ({
  seq: '1',
  attempts,
  enqueuedAt: new Date(),
  kind: 'span',
  row: spanRowFixture(overrides),
})
const retried = (records: readonly OutboxRecord[]) =>
  records.map((r) => ({ ...r, attempts: r.attempts + 1 }))

describeWithClickHouse('ClickHouse analytics store (real server)', (server) => {
  let client: ClickHouseClient
  beforeAll(() => {
    client = testClient(server().url)
  })
  afterAll(async () => {
    await client?.close()
  })

  async function migrated(): Promise<{ store: ClickHouseAnalyticsStore; db: string }> {
    const db = uniqueDatabase()
    const store = createClickHouseAnalyticsStore(client, { database: db })
    await store.migrate()
    return { store, db }
  }

  describe('migrate', () => {
    it('creates the database, raw tables, rollups and views with DDL for the server version, and is idempotent', async () => {
      const db = uniqueDatabase()
      const store = createClickHouseAnalyticsStore(client, {
        database: db,
        eventsTable: 'ev',
        spansTable: 'sp',
      })
      const [server] = await rows<{ version: string }>(client, 'SELECT version() AS version')
      const features = await store.migrate()
      expect(features).toEqual(featuresOf(server?.version ?? ''))
      expect(await store.migrate()).toEqual(features)
      const tables = await rows<{ name: string; engine: string }>(
        client,
        `SELECT name, engine FROM system.tables WHERE database = '${db}' ORDER BY name`,
      )
      expect(Object.fromEntries(tables.map((t) => [t.name, t.engine]))).toEqual({
        ev: 'MergeTree',
        sp: 'MergeTree',
        events_1m: 'SummingMergeTree',
        events_1m_mv: 'MaterializedView',
        request_spans_1m: 'AggregatingMergeTree',
        request_spans_1m_mv: 'MaterializedView',
        session_minutes: 'ReplacingMergeTree',
      })
      const [column] = await rows<{ type: string }>(
        client,
        `SELECT type FROM system.columns WHERE database = '${db}' AND table = 'ev' AND name = 'occurred_at'`,
      )
      expect(column?.type).toBe(features.modern ? "DateTime64(3, 'UTC')" : "DateTime('UTC')")
    })
  })

  describe('checkReady', () => {
    it('is ready once migrated, and names exactly the table that was dropped', async () => {
      const { store, db } = await migrated()
      expect(await store.checkReady()).toEqual({ ready: true, reachable: true, missingTables: [] })
      await client.command({ query: `DROP TABLE ${db}.request_spans_1m` })
      expect(await store.checkReady()).toEqual({
        ready: false,
        reachable: true,
        missingTables: ['request_spans_1m'],
      })
    })

    it('lists every required table before migration', async () => {
      const store = createClickHouseAnalyticsStore(client, { database: uniqueDatabase() })
      expect(await store.checkReady()).toEqual({
        ready: false,
        reachable: true,
        missingTables: requiredTableNames(),
      })
    })

    it('is not ready, with no table names, when the server is unreachable', async () => {
      const offline = testClient('http://127.0.0.1:1')
      const store = createClickHouseAnalyticsStore(offline, { database: uniqueDatabase() })
      expect(await store.checkReady()).toEqual({
        ready: false,
        reachable: false,
        missingTables: [],
      })
      await offline.close()
    })
  })

  describe('insert', () => {
    it('stores events with millisecond timestamps, exception class, tags and context JSON', async () => {
      const { store, db } = await migrated()
      const context = {
        service: 'api',
        tags: { region: 'eu-1', "it's": 'quoted\\value' },
        exception: { type: 'TypeError', message: 'x is undefined' },
      }
      const record = event({
        level: 'error',
        fingerprint: 'fp-1',
        trace_id: 'trace-9',
        user_id: 'u-7',
        issue_id: 'issue-3',
        duration_ms: 12.5,
        payload: { event_type: 'error', context },
      })
      expect(await store.insert([record])).toEqual({ inserted: 1, skipped: 0 })
      const [row] = await rows<Record<string, unknown>>(
        client,
        `SELECT *, toUnixTimestamp(occurred_at) AS occurred_s FROM ${db}.events_raw`,
      )
      expect(row).toMatchObject({
        project_id: 'project-1',
        id: record.row.id,
        event_type: 'error',
        level: 'error',
        environment: 'production',
        release: '1.0.0',
        service: 'api',
        fingerprint: 'fp-1',
        message: 'boom',
        exception_class: 'TypeError',
        duration_ms: 12.5,
        trace_id: 'trace-9',
        user_id: 'u-7',
        issue_id: 'issue-3',
        tag_keys: ['region', "it's"],
        tag_values: ['eu-1', 'quoted\\value'],
        occurred_s: Date.parse('2026-11-22T10:15:30Z') / 1000,
      })
      expect(JSON.parse(String(row?.['context']))).toEqual(context)
      if ('occurred_at_ms' in (row ?? {})) {
        expect(row).toMatchObject({
          occurred_at: '2026-11-22 10:15:30',
          occurred_at_ms: 123,
          received_at_ms: 456,
        })
      } else {
        expect(row).toMatchObject({
          occurred_at: '2026-11-22 10:15:30.123',
          received_at: '2026-11-22 10:15:31.456',
        })
      }
    })

    it('stores spans with route, status code and millisecond start and end', async () => {
      const { store, db } = await migrated()
      const record = span({
        name: 'GET /users/42',
        parent_span_id: 'parent-1',
        kind: 'client',
        duration_ms: 40.5,
        payload: { context: { request: { route: '/users/:id' }, status: '503', service: 'web' } },
      })
      await store.insert([record])
      const [row] = await rows<Record<string, unknown>>(client, `SELECT * FROM ${db}.spans_raw`)
      expect(row).toMatchObject({
        id: record.row.id,
        trace_id: 'trace-1',
        parent_span_id: 'parent-1',
        name: 'GET /users/42',
        kind: 'client',
        route: '/users/:id',
        status_code: 503,
        duration_ms: 40.5,
        service: 'web',
      })
      if ('started_at_ms' in (row ?? {})) {
        expect(row).toMatchObject({
          started_at: '2026-11-22 10:15:00',
          started_at_ms: 250,
          ended_at: '2026-11-22 10:15:00',
          ended_at_ms: 291,
        })
      } else {
        expect(row).toMatchObject({
          started_at: '2026-11-22 10:15:00.250',
          ended_at: '2026-11-22 10:15:00.291',
        })
      }
    })

    it('feeds events_1m and request_spans_1m (root server and browser spans only)', async () => {
      const { store, db } = await migrated()
      const minute = '2026-11-22T10:15:'
      const durations = Array.from({ length: 20 }, (_, i) => (i + 1) * 10) // 10 … 200
      await store.insert([
        ...[1, 2, 3].map((s) => event({ occurred_at: `${minute}0${s}.000Z` })),
        ...[1, 2].map(() => event({ event_type: 'log', level: 'info' })),
        event({ occurred_at: '2026-11-22T10:16:00.000Z' }),
        ...durations.map((d) => span({ duration_ms: d })),
        span({ name: 'page', kind: 'browser', duration_ms: 1_000 }),
        span({ kind: 'server', parent_span_id: 'p', duration_ms: 9_999 }),
        span({ kind: 'client', duration_ms: 9_999 }),
      ])
      const counts = await rows<{
        event_type: string
        level: string
        minute: string
        count: string
      }>(
        client,
        `SELECT event_type, level, minute, sum(count) AS count FROM ${db}.events_1m
         GROUP BY event_type, level, minute ORDER BY minute, event_type`,
      )
      expect(counts.map((c) => ({ ...c, count: Number(c.count) }))).toEqual([
        { event_type: 'error', level: 'error', minute: '2026-11-22 10:15:00', count: 3 },
        { event_type: 'log', level: 'info', minute: '2026-11-22 10:15:00', count: 2 },
        { event_type: 'error', level: 'error', minute: '2026-11-22 10:16:00', count: 1 },
      ])
      const requests = await rows<{ route: string; count: string; avg: number; p95: number }>(
        client,
        `SELECT route, countMerge(count) AS count, avgMerge(avg_duration_ms) AS avg,
           quantileMerge(0.95)(p95_duration_ms) AS p95
         FROM ${db}.request_spans_1m GROUP BY route ORDER BY route`,
      )
      // avg of 10…200 is 105; p95 interpolates at index 0.95 × 19 = 18.05 between 190 and 200.
      expect(requests.map((r) => ({ ...r, count: Number(r.count) }))).toEqual([
        { route: 'GET /users/:id', count: 20, avg: 105, p95: 190.5 },
        { route: 'page', count: 1, avg: 1_000, p95: 1_000 },
      ])
    })

    it('sends a re-sent batch (attempts > 0) only once: raw tables and rollups do not double', async () => {
      const { store, db } = await migrated()
      const batch = [event(), event(), span(), span({ duration_ms: 30 })]
      expect(await store.insert(batch)).toEqual({ inserted: 4, skipped: 0 })
      expect(await store.insert(retried(batch))).toEqual({ inserted: 0, skipped: 4 })
      const fresh = [event({}, 1), span({}, 2)]
      expect(await store.insert([...retried(batch), ...fresh])).toEqual({ inserted: 2, skipped: 4 })
      const [totals] = await rows<Record<string, string>>(
        client,
        `SELECT
           (SELECT count() FROM ${db}.events_raw) AS events,
           (SELECT uniqExact(id) FROM ${db}.events_raw) AS event_ids,
           (SELECT count() FROM ${db}.spans_raw) AS spans,
           (SELECT sum(count) FROM ${db}.events_1m) AS events_1m,
           (SELECT countMerge(count) FROM ${db}.request_spans_1m) AS spans_1m`,
      )
      expect(
        Object.fromEntries(Object.entries(totals ?? {}).map(([k, v]) => [k, Number(v)])),
      ).toEqual({
        events: 3,
        event_ids: 3,
        spans: 3,
        events_1m: 3,
        spans_1m: 3,
      })
    })
  })
})
