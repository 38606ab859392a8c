import type { ClickHouseClient } from '@clickhouse/client'
import type { OutboxRecord } from '@tis/ingest'
import { AnalyticsError, errorMessage } from './errors'
import {
  type ClickHouseRow,
  eventRow,
  sessionMinuteRow,
  spanRow,
  type TimestampLayout,
} from './rows'
import { chunk, qualified, quoteString } from './sql'

/** What one {@link AnalyticsSink.insert} call did. */
export interface AnalyticsInsertResult {
  /** Rows sent to ClickHouse (events, spans and session minutes). */
  readonly inserted: number
  /** Rows left out because an earlier attempt had already stored them. */
  readonly skipped: number
}

/** Writes outbox records to the analytics store, each record exactly once. */
export interface AnalyticsSink {
  /**
   * Inserts the records (one insert per table). Events and spans with `attempts > 0` may already
   * be stored (an acknowledgement that got lost); those are looked up first and left out.
   * Session minutes are always sent: the row of the highest version replaces the others. Rejects
   * with an `AnalyticsError` when the store did not acknowledge; calling again with the same
   * records (attempts raised) is then safe.
   */
  insert(records: readonly OutboxRecord[]): Promise<AnalyticsInsertResult>
}

// An IN list of 1000 UUIDs is ~40 KB, well under max_query_size (256 KiB).
const LOOKUP_CHUNK = 1_000

/** Ids among `ids` that already exist in `table`. */
async function existingIds(
  client: ClickHouseClient,
  table: string,
  ids: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>()
  for (const part of chunk(ids, LOOKUP_CHUNK)) {
    const result = await client.query({
      query: `SELECT id FROM ${table} WHERE id IN (${part.map(quoteString).join(', ')})`,
      format: 'JSONEachRow',
    })
    for (const row of await result.json<{ id: string }>()) found.add(row.id)
  }
  return found
}

interface TableWrite {
  readonly table: string
  readonly rows: ClickHouseRow[]
  readonly retriedIds: string[]
}

async function writeTable(client: ClickHouseClient, write: TableWrite): Promise<number> {
  if (write.rows.length === 0) return 0
  let rows = write.rows
  if (write.retriedIds.length > 0) {
    const existing = await existingIds(client, write.table, write.retriedIds).catch((cause) => {
      throw new AnalyticsError(
        'query_failed',
        `lookup in ${write.table} failed: ${errorMessage(cause)}`,
        { cause },
      )
    })
    rows = rows.filter((row) => !existing.has(String(row['id'])))
  }
  if (rows.length === 0) return 0
  await client
    .insert({ table: write.table, values: rows, format: 'JSONEachRow' })
    .catch((cause) => {
      throw new AnalyticsError(
        'insert_failed',
        `insert into ${write.table} failed: ${errorMessage(cause)}`,
        { cause },
      )
    })
  return rows.length
}

/** Options of {@link insertRecords}. */
export interface InsertRecordsOptions {
  readonly database: string
  readonly eventsTable: string
  readonly spansTable: string
  readonly sessionsTable: string
  readonly layout: TimestampLayout
}

/** Maps and inserts `records`, skipping retried ones that are already stored. */
export async function insertRecords(
  client: ClickHouseClient,
  records: readonly OutboxRecord[],
  options: InsertRecordsOptions,
): Promise<AnalyticsInsertResult> {
  const events: TableWrite = {
    table: qualified(options.database, options.eventsTable),
    rows: [],
    retriedIds: [],
  }
  const spans: TableWrite = {
    table: qualified(options.database, options.spansTable),
    rows: [],
    retriedIds: [],
  }
  const sessions: TableWrite = {
    table: qualified(options.database, options.sessionsTable),
    rows: [],
    retriedIds: [],
  }
  for (const record of records) {
    switch (record.kind) {
      case 'event':
        events.rows.push(eventRow(record.row, options.layout))
        if (record.attempts > 0) events.retriedIds.push(record.row.id)
        break
      case 'span':
        spans.rows.push(spanRow(record.row, options.layout))
        if (record.attempts > 0) spans.retriedIds.push(record.row.id)
        break
      case 'session_minute':
        // Replacing, not counted: sending one again changes nothing, so there is no lookup.
        sessions.rows.push(sessionMinuteRow(record.row))
        break
    }
  }
  let inserted = 0
  for (const write of [events, spans, sessions]) inserted += await writeTable(client, write)
  return { inserted, skipped: records.length - inserted }
}
