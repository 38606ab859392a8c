import type { ClickHouseClient } from '@clickhouse/client'
import type { OutboxRecord } from '@tis/ingest'
import { AnalyticsError, errorMessage } from './errors'
import { expireOldPartitions, upgradeTtl } from './retention'
import type { TimestampLayout } from './rows'
import {
  type AnalyticsDdlOptions,
  type AnalyticsTables,
  analyticsDdl,
  DEFAULT_ANALYTICS_TABLES,
  requiredTableNames,
} from './schema'
import { detectServerFeatures, type ServerFeatures } from './server-features'
import { type AnalyticsInsertResult, type AnalyticsSink, insertRecords } from './sink'
import { quoteString } from './sql'

/** Readiness of the analytics store (spec section 4, rule 3). */
export interface AnalyticsReadiness {
  /** Reachable, and every required table and materialized view exists. */
  readonly ready: boolean
  /** Whether the server answered at all. */
  readonly reachable: boolean
  /**
   * Required tables and views that do not exist. Empty when the server is unreachable: which
   * tables exist is then not determinable.
   */
  readonly missingTables: readonly string[]
}

/** Options of {@link createClickHouseAnalyticsStore}. */
export interface ClickHouseAnalyticsStoreOptions
  extends Partial<AnalyticsTables>,
    AnalyticsDdlOptions {}

/** The ClickHouse analytics store: schema, readiness and the exactly-once sink. */
export interface ClickHouseAnalyticsStore extends AnalyticsSink {
  /** Database, raw table and session table names in use. */
  readonly tables: AnalyticsTables
  /**
   * Creates the database, tables and views when missing (idempotent), with DDL chosen by the
   * server version. Rejects with an `AnalyticsError` (`migration_failed`).
   */
  migrate(): Promise<ServerFeatures>
  /**
   * One retention pass: on servers without TTL (before 21 here) drops the monthly partitions
   * wholly older than the periods; on 21+ a no-op (the TTL expires rows). Resolves the dropped
   * `table:partition` names.
   */
  expire(now?: Date): Promise<string[]>
  /** Whether the store is reachable and complete; never rejects. */
  checkReady(): Promise<AnalyticsReadiness>
  /** {@link AnalyticsSink.insert}. */
  insert(records: readonly OutboxRecord[]): Promise<AnalyticsInsertResult>
}

/**
 * The analytics store over a `@clickhouse/client` instance (the caller creates and closes it;
 * see `clickHouseClientOptions`).
 */
export function createClickHouseAnalyticsStore(
  client: ClickHouseClient,
  options: ClickHouseAnalyticsStoreOptions = {},
): ClickHouseAnalyticsStore {
  const tables: AnalyticsTables = {
    database: options.database ?? DEFAULT_ANALYTICS_TABLES.database,
    eventsTable: options.eventsTable ?? DEFAULT_ANALYTICS_TABLES.eventsTable,
    spansTable: options.spansTable ?? DEFAULT_ANALYTICS_TABLES.spansTable,
    sessionsTable: options.sessionsTable ?? DEFAULT_ANALYTICS_TABLES.sessionsTable,
  }
  let layout: TimestampLayout | undefined

  // The layout follows the events table as it exists (not the server version), so tables made
  // by an older server keep working after a server upgrade.
  async function timestampLayout(): Promise<TimestampLayout> {
    if (layout) return layout
    const result = await client
      .query({
        query: `SELECT type FROM system.columns WHERE database = ${quoteString(tables.database)} AND table = ${quoteString(tables.eventsTable)} AND name = 'occurred_at'`,
        format: 'JSONEachRow',
      })
      .catch((cause) => {
        throw new AnalyticsError(
          'query_failed',
          `analytics store unreachable: ${errorMessage(cause)}`,
          { cause },
        )
      })
    const [row] = await result.json<{ type: string }>()
    if (!row)
      throw new AnalyticsError(
        'query_failed',
        `table ${tables.database}.${tables.eventsTable} is missing`,
      )
    layout = row.type.startsWith('DateTime64') ? 'datetime64' : 'datetime_ms'
    return layout
  }

  return {
    tables,
    async migrate() {
      try {
        const features = await detectServerFeatures(client)
        for (const statement of analyticsDdl(tables, features, options)) {
          await client.command({ query: statement })
        }
        if (features.modern) await upgradeTtl(client, tables, options)
        layout = undefined
        return features
      } catch (cause) {
        throw new AnalyticsError(
          'migration_failed',
          `analytics migration failed: ${errorMessage(cause)}`,
          { cause },
        )
      }
    },
    async expire(now) {
      const features = await detectServerFeatures(client)
      if (features.modern) return []
      return expireOldPartitions(client, tables, { ...options, now })
    },
    async checkReady() {
      try {
        const result = await client.query({
          query: `SELECT name FROM system.tables WHERE database = ${quoteString(tables.database)}`,
          format: 'JSONEachRow',
        })
        const existing = new Set((await result.json<{ name: string }>()).map((row) => row.name))
        const missingTables = requiredTableNames(tables).filter((name) => !existing.has(name))
        return { ready: missingTables.length === 0, reachable: true, missingTables }
      } catch {
        return { ready: false, reachable: false, missingTables: [] }
      }
    },
    async insert(records) {
      if (records.length === 0) return { inserted: 0, skipped: 0 }
      return insertRecords(client, records, { ...tables, layout: await timestampLayout() })
    },
  }
}
