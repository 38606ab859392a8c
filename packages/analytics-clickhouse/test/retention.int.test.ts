import type { ClickHouseClient } from '@clickhouse/client'
import type { OutboxRecord } from '@tis/ingest'
import { describeWithClickHouse } from '@tis/test-utils/clickhouse-suite'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createClickHouseAnalyticsStore } from '../src/index'
import { rows, testClient, uniqueDatabase } from './support/clickhouse-client'
import { eventRowFixture, sessionMinuteFixture, spanRowFixture } from './support/fixtures'

// The test server is ClickHouse 18.16 (no TTL): these runs cover the partition-dropping path.
// The TTL path of 21+ runs on chdb (ClickHouse 26.x in process): test/ttl-chdb.int.test.ts.
const NOW = new Date('2026-11-22T12:00:00Z')
const MONTHS = ['2026-01-15', '2026-07-15', '2026-08-20', '2026-11-20'] // 311, 130, 94, 2 days old

function records(): OutboxRecord[] {
  return MONTHS.flatMap((day, i): OutboxRecord[] => [
    {
      seq: String(2 * i + 1),
      attempts: 0,
      enqueuedAt: NOW,
      kind: 'event',
      row: eventRowFixture({ occurred_at: `${day}T10:00:00.000Z` }),
    },
    {
      seq: String(2 * i + 2),
      attempts: 0,
      enqueuedAt: NOW,
      kind: 'span',
      row: spanRowFixture({ started_at: `${day}T10:00:00.000Z` }),
    },
    {
      seq: String(2 * i + 2),
      attempts: 0,
      enqueuedAt: NOW,
      kind: 'session_minute',
      row: sessionMinuteFixture({ minute: `${day}T10:00:00.000Z` }),
    },
  ])
}

describeWithClickHouse('analytics retention by partitions (real ClickHouse 18.16)', (server) => {
  let client: ClickHouseClient
  beforeAll(() => {
    client = testClient(server().url)
  })
  afterAll(async () => {
    await client?.close()
  })

  async function seeded(retentionDays: number, rollupRetentionDays: number) {
    const database = uniqueDatabase('ret')
    const store = createClickHouseAnalyticsStore(client, {
      database,
      retentionDays,
      rollupRetentionDays,
    })
    await store.migrate()
    await store.insert(records())
    return { store, database }
  }
  const months = async (database: string, table: string) =>
    (
      await rows<{ m: number }>(
        client,
        `SELECT DISTINCT toYYYYMM(${table.startsWith('spans') ? 'started_at' : /_1m$|^session_minutes$/.test(table) ? 'minute' : 'occurred_at'}) AS m FROM ${database}.${table} ORDER BY m`,
      )
    ).map((r) => Number(r.m))

  it('drops raw months wholly older than the raw period and rollup months older than the rollup period', async () => {
    const { store, database } = await seeded(90, 200)
    const dropped = await store.expire(NOW)
    expect(dropped.sort()).toEqual([
      'events_1m:202601',
      'events_raw:202601',
      'events_raw:202607',
      'request_spans_1m:202601',
      'session_minutes:202601',
      'spans_raw:202601',
      'spans_raw:202607',
    ])
    // The August row is 94 days old but its month is not wholly past the cutoff (2026-08-24).
    expect(await months(database, 'events_raw')).toEqual([202608, 202611])
    expect(await months(database, 'spans_raw')).toEqual([202608, 202611])
    expect(await months(database, 'events_1m')).toEqual([202607, 202608, 202611])
    expect(await months(database, 'request_spans_1m')).toEqual([202607, 202608, 202611])
    expect(await months(database, 'session_minutes')).toEqual([202607, 202608, 202611])
  })

  it('keeps everything when the periods are 0', async () => {
    const { store, database } = await seeded(0, 0)
    expect(await store.expire(NOW)).toEqual([])
    expect(await months(database, 'events_raw')).toEqual([202601, 202607, 202608, 202611])
    expect(await months(database, 'events_1m')).toEqual([202601, 202607, 202608, 202611])
    expect(await months(database, 'session_minutes')).toEqual([202601, 202607, 202608, 202611])
  })

  it('is harmless when run again or by two instances at once', async () => {
    const { store, database } = await seeded(30, 30)
    const other = createClickHouseAnalyticsStore(client, {
      database,
      retentionDays: 30,
      rollupRetentionDays: 30,
    })
    await Promise.all([store.expire(NOW), other.expire(NOW)])
    expect(await store.expire(NOW)).toEqual([])
    expect(await months(database, 'events_raw')).toEqual([202611])
    expect(await months(database, 'request_spans_1m')).toEqual([202611])
  })
})
