import type { ClickHouseClient } from '@clickhouse/client'
import {
  type AnalyticsDdlOptions,
  type AnalyticsTables,
  EVENTS_1M_TABLE,
  REQUEST_SPANS_1M_TABLE,
  ttlExpression,
} from './schema'
import { qualified, quoteString } from './sql'

/** A table whose rows expire, the time column its TTL reads and the period in days (0: never). */
export interface ExpiringTable {
  readonly table: string
  readonly column: string
  readonly days: number
}

/**
 * Raw tables by `retentionDays`; rollups and session minutes by `rollupRetentionDays` (missing
 * or 0: forever).
 */
export function expiringTables(
  tables: AnalyticsTables,
  options: AnalyticsDdlOptions,
): ExpiringTable[] {
  const raw = Math.max(0, Math.floor(options.retentionDays ?? 0))
  const rollup = Math.max(0, Math.floor(options.rollupRetentionDays ?? 0))
  return [
    { table: tables.eventsTable, column: 'occurred_at', days: raw },
    { table: tables.spansTable, column: 'started_at', days: raw },
    { table: EVENTS_1M_TABLE, column: 'minute', days: rollup },
    { table: REQUEST_SPANS_1M_TABLE, column: 'minute', days: rollup },
    { table: tables.sessionsTable, column: 'minute', days: rollup },
  ]
}

/**
 * The `ALTER TABLE` bringing an existing table's TTL to `target`, or `undefined` when its
 * `create_table_query` (from `system.tables`) already has it. `REMOVE TTL` when the period
 * becomes 0 (ClickHouse 20.12+; only used on 21+).
 */
export function ttlUpgradeStatement(
  database: string,
  target: ExpiringTable,
  createTableQuery: string,
): string | undefined {
  const current = /\bTTL\s+(.+?)(?:\s+SETTINGS\b|$)/s.exec(createTableQuery)?.[1]?.trim()
  const name = qualified(database, target.table)
  if (target.days === 0) return current ? `ALTER TABLE ${name} REMOVE TTL` : undefined
  const wanted = ttlExpression(target.column, target.days)
  if (current && normalize(`TTL ${current}`) === normalize(wanted)) return undefined
  return `ALTER TABLE ${name} MODIFY ${wanted}`
}

// The server prints `toIntervalDay(30)` for `INTERVAL 30 DAY`; compare on one spelling.
function normalize(ttl: string): string {
  return ttl
    .replace(/toIntervalDay\((\d+)\)/g, 'INTERVAL $1 DAY')
    .replace(/`/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/** ClickHouse 21+: the TTL of every existing table brought to the configured periods. */
export async function upgradeTtl(
  client: ClickHouseClient,
  tables: AnalyticsTables,
  options: AnalyticsDdlOptions,
): Promise<string[]> {
  const result = await client.query({
    query: `SELECT name, create_table_query FROM system.tables WHERE database = ${quoteString(tables.database)}`,
    format: 'JSONEachRow',
  })
  const existing = new Map(
    (await result.json<{ name: string; create_table_query: string }>()).map((r) => [
      r.name,
      r.create_table_query,
    ]),
  )
  const applied: string[] = []
  for (const target of expiringTables(tables, options)) {
    const query = existing.get(target.table)
    if (query === undefined) continue
    const statement = ttlUpgradeStatement(tables.database, target, query)
    if (!statement) continue
    await client.command({ query: statement })
    applied.push(statement)
  }
  return applied
}

/** Options of {@link expireOldPartitions}. */
export interface ExpirePartitionsOptions extends AnalyticsDdlOptions {
  /** The clock. @default new Date() */
  readonly now?: Date | undefined
}

/** `YYYYMM` of the last month whose partition lies entirely before `now - days`. */
export function lastExpiredMonth(now: Date, days: number): number {
  const cutoff = new Date(now.getTime() - days * 86_400_000)
  // A month is wholly expired when its successor starts at or before the cutoff.
  const year = cutoff.getUTCFullYear()
  const month = cutoff.getUTCMonth() // 0-based: the month before the cutoff's month, 1-based
  return month === 0 ? (year - 1) * 100 + 12 : year * 100 + month
}

/**
 * Servers without TTL (before 19.6, e.g. 18.16): drops the monthly partitions lying wholly
 * before each table's cutoff, so rows live up to one month past the period. Safe to run from
 * several instances: a partition another pass dropped first is not an error.
 */
export async function expireOldPartitions(
  client: ClickHouseClient,
  tables: AnalyticsTables,
  options: ExpirePartitionsOptions,
): Promise<string[]> {
  const now = options.now ?? new Date()
  const dropped: string[] = []
  for (const target of expiringTables(tables, options)) {
    if (target.days === 0) continue
    const limit = lastExpiredMonth(now, target.days)
    for (const partition of await activePartitions(client, tables.database, target.table)) {
      if (!/^\d{6}$/.test(partition) || Number(partition) > limit) continue
      const name = qualified(tables.database, target.table)
      try {
        await client.command({ query: `ALTER TABLE ${name} DROP PARTITION ${partition}` })
      } catch (cause) {
        const still = await activePartitions(client, tables.database, target.table)
        if (still.includes(partition)) throw cause
      }
      dropped.push(`${target.table}:${partition}`)
    }
  }
  return dropped
}

async function activePartitions(
  client: ClickHouseClient,
  database: string,
  table: string,
): Promise<string[]> {
  const result = await client.query({
    query: `SELECT DISTINCT partition FROM system.parts WHERE active AND database = ${quoteString(database)} AND table = ${quoteString(table)}`,
    format: 'JSONEachRow',
  })
  return (await result.json<{ partition: string }>()).map((r) => r.partition)
}
