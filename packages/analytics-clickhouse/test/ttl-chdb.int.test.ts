import type { OutboxRecord } from '@tis/ingest'
import { expect, it } from 'vitest'
import {
  type AnalyticsTables,
  analyticsDdl,
  createClickHouseAnalyticsStore,
  DEFAULT_ANALYTICS_TABLES,
  detectServerFeatures,
  expiringTables,
  upgradeTtl,
} from '../src/index'
import { describeWithChdb } from './support/chdb-client'
import { rows, uniqueDatabase } from './support/clickhouse-client'
import { eventRowFixture, sessionMinuteFixture, spanRowFixture } from './support/fixtures'

// The TTL path of ClickHouse 21+ on a real modern engine: chdb runs ClickHouse 26.x inside the
// test process, behind @clickhouse/client (chdb's connection), so the package's own migrate(),
// upgradeTtl() and sink run unchanged. The TTL counts from the engine's clock: rows are dated
// relative to now. OPTIMIZE … FINAL makes the engine apply the TTL at once (a merge).
const DAY = 86_400_000
const AGES = [500, 60, 2] // days; raw period 30 keeps 2, rollup period 400 keeps 60 and 2
const RAW = ['events_raw', 'spans_raw'] as const
const ROLLUPS = ['events_1m', 'request_spans_1m', 'session_minutes'] as const
const TABLES = [...RAW, ...ROLLUPS]
const COLUMN: Record<string, string> = {
  events_raw: 'occurred_at',
  spans_raw: 'started_at',
  events_1m: 'minute',
  request_spans_1m: 'minute',
  session_minutes: 'minute',
}

function records(ages: readonly number[]): OutboxRecord[] {
  return ages.flatMap((age, i): OutboxRecord[] => {
    const at = new Date(Date.now() - age * DAY).toISOString()
    const common = { attempts: 0, enqueuedAt: new Date() }
    return [
      {
        ...common,
        seq: String(2 * i + 1),
        kind: 'event',
        row: eventRowFixture({ occurred_at: at }),
      },
      { ...common, seq: String(2 * i + 2), kind: 'span', row: spanRowFixture({ started_at: at }) },
      {
        ...common,
        seq: String(2 * i + 2),
        kind: 'session_minute',
        row: sessionMinuteFixture({ minute: at }),
      },
    ]
  })
}

describeWithChdb('analytics retention by TTL (ClickHouse 21+ on chdb)', (client) => {
  const tablesIn = (database: string): AnalyticsTables => ({
    ...DEFAULT_ANALYTICS_TABLES,
    database,
  })

  // Whole days between each stored row's time and the engine's now, distinct, oldest first.
  async function ages(database: string, table: string): Promise<number[]> {
    const column = `toDateTime(${COLUMN[table]})`
    const found = await rows<{ age: number }>(
      client(),
      `SELECT DISTINCT intDiv(toUInt32(now()) - toUInt32(${column}), 86400) AS age FROM ${database}.${table} ORDER BY age DESC`,
    )
    return found.map((r) => Number(r.age))
  }
  async function createQuery(database: string, table: string): Promise<string> {
    const [row] = await rows<{ q: string }>(
      client(),
      `SELECT create_table_query AS q FROM system.tables WHERE database = '${database}' AND name = '${table}'`,
    )
    if (!row) throw new Error(`${database}.${table} does not exist`)
    return row.q
  }
  async function optimize(database: string): Promise<void> {
    for (const table of TABLES) {
      await client().command({ query: `OPTIMIZE TABLE ${database}.${table} FINAL` })
    }
  }
  // The CREATE DDL alone (analyticsDdl for the detected server), not migrate(): its TTL upgrade
  // would mend a wrong TTL in the DDL. Then the sink inserts rows of every age.
  async function seeded(retentionDays: number, rollupRetentionDays: number) {
    const database = uniqueDatabase('ttl')
    const options = { retentionDays, rollupRetentionDays }
    const features = await detectServerFeatures(client())
    for (const query of analyticsDdl(tablesIn(database), features, options)) {
      await client().command({ query })
    }
    const store = createClickHouseAnalyticsStore(client(), { database, ...options })
    await store.insert(records(AGES))
    return { database, store, features, options }
  }

  it('runs a ClickHouse 21+ engine, on which migrate() chooses the TTL path', async () => {
    const database = uniqueDatabase('ttl')
    const store = createClickHouseAnalyticsStore(client(), { database, retentionDays: 30 })
    const features = await store.migrate()
    expect(features.modern).toBe(true)
    expect(Number.parseInt(features.version, 10)).toBeGreaterThanOrEqual(21)
    expect(await createQuery(database, 'events_raw')).toContain('+ toIntervalDay(30)')
    await store.insert(records(AGES))
    expect(await ages(database, 'events_raw')).toContain(2)
    // No partition pass on 21+: the TTL alone expires rows.
    expect(await store.expire()).toEqual([])
  })

  it('creates the tables with the raw and rollup TTLs, and the engine expires by them', async () => {
    const { database, options } = await seeded(30, 400)
    // The upgrade reads the engine's spelling of these TTLs as the configured periods.
    expect(await upgradeTtl(client(), tablesIn(database), options)).toEqual([])
    for (const table of RAW) {
      expect(await createQuery(database, table)).toContain(
        `TTL toDateTime(${COLUMN[table]}) + toIntervalDay(30)`,
      )
    }
    for (const table of ROLLUPS) {
      expect(await createQuery(database, table)).toContain(
        'TTL toDateTime(minute) + toIntervalDay(400)',
      )
    }
    await optimize(database)
    for (const table of RAW) expect(await ages(database, table)).toEqual([2])
    for (const table of ROLLUPS) expect(await ages(database, table)).toEqual([60, 2])
  })

  it('keeps every row without a period (no TTL in the DDL)', async () => {
    const { database } = await seeded(0, 0)
    for (const table of TABLES) expect(await createQuery(database, table)).not.toContain('TTL')
    await optimize(database)
    for (const table of TABLES) expect(await ages(database, table)).toEqual(AGES)
  })

  it('upgrades tables made without a TTL, recognises the TTL it set, and removes it again', async () => {
    const { database } = await seeded(0, 0)
    const tables = tablesIn(database)
    await optimize(database)
    expect(await ages(database, 'events_raw')).toEqual(AGES)

    // Period 0 → 30/400: one MODIFY TTL per table.
    const periods = { retentionDays: 30, rollupRetentionDays: 400 }
    expect(await upgradeTtl(client(), tables, periods)).toEqual(
      expiringTables(tables, periods).map(
        (t) =>
          `ALTER TABLE \`${database}\`.\`${t.table}\` MODIFY TTL toDateTime(${t.column}) + INTERVAL ${t.days} DAY`,
      ),
    )
    for (const table of RAW) {
      expect(await createQuery(database, table)).toContain('+ toIntervalDay(30)')
    }
    for (const table of ROLLUPS) {
      expect(await createQuery(database, table)).toContain('+ toIntervalDay(400)')
    }
    // The engine's spelling of the TTL is recognised: a second pass (every migrate) alters nothing.
    expect(await upgradeTtl(client(), tables, periods)).toEqual([])
    await optimize(database)
    for (const table of RAW) expect(await ages(database, table)).toEqual([2])
    for (const table of ROLLUPS) expect(await ages(database, table)).toEqual([60, 2])

    // Another period through migrate() itself: MODIFY TTL to 90 (raw), and 400 left alone.
    const store = createClickHouseAnalyticsStore(client(), {
      database,
      ...periods,
      retentionDays: 90,
    })
    await store.migrate()
    for (const table of RAW) {
      expect(await createQuery(database, table)).toContain('+ toIntervalDay(90)')
    }
    for (const table of ROLLUPS) {
      expect(await createQuery(database, table)).toContain('+ toIntervalDay(400)')
    }
    await store.insert(records([60]))
    await optimize(database)
    expect(await ages(database, 'events_raw')).toEqual([60, 2])

    // Period 0 again: REMOVE TTL on every table, after which old rows stay.
    const none = { retentionDays: 0, rollupRetentionDays: 0 }
    expect(await upgradeTtl(client(), tables, none)).toEqual(
      TABLES.map((table) => `ALTER TABLE \`${database}\`.\`${table}\` REMOVE TTL`),
    )
    for (const table of TABLES) expect(await createQuery(database, table)).not.toContain('TTL')
    expect(await upgradeTtl(client(), tables, none)).toEqual([])
    await createClickHouseAnalyticsStore(client(), { database }).insert(records([500]))
    await optimize(database)
    expect(await ages(database, 'events_raw')).toEqual([500, 60, 2])
    expect(await ages(database, 'events_1m')).toEqual([500, 60, 2])
  })
})
