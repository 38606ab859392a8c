import type { ServerFeatures } from './server-features'
import { qualified, quoteIdentifier } from './sql'

/** Where the analytics tables live. Rollup and view names are fixed (spec section 1). */
export interface AnalyticsTables {
  /** @default 'tis' */
  readonly database: string
  /** Raw events table. @default 'events_raw' */
  readonly eventsTable: string
  /** Raw spans table. @default 'spans_raw' */
  readonly spansTable: string
  /** Release health: sessions per (release, environment, minute). @default 'session_minutes' */
  readonly sessionsTable: string
}

/** Default table names. */
export const DEFAULT_ANALYTICS_TABLES: AnalyticsTables = {
  database: 'tis',
  eventsTable: 'events_raw',
  spansTable: 'spans_raw',
  sessionsTable: 'session_minutes',
}

/** Event counts per project, event type, level and minute (SummingMergeTree). */
export const EVENTS_1M_TABLE = 'events_1m'
/** Root server/browser span count, average and p95 duration per route and minute. */
export const REQUEST_SPANS_1M_TABLE = 'request_spans_1m'
/** The materialized view feeding {@link EVENTS_1M_TABLE}. */
export const EVENTS_1M_VIEW = 'events_1m_mv'
/** The materialized view feeding {@link REQUEST_SPANS_1M_TABLE}. */
export const REQUEST_SPANS_1M_VIEW = 'request_spans_1m_mv'

/** Every table and materialized view readiness requires, raw tables first, sessions last. */
export function requiredTableNames(tables: AnalyticsTables = DEFAULT_ANALYTICS_TABLES): string[] {
  return [
    tables.eventsTable,
    tables.spansTable,
    EVENTS_1M_TABLE,
    EVENTS_1M_VIEW,
    REQUEST_SPANS_1M_TABLE,
    REQUEST_SPANS_1M_VIEW,
    tables.sessionsTable,
  ]
}

/** The TTL clause expiring rows `days` after `column` (ClickHouse 19.6+; used on 21+). */
export function ttlExpression(column: string, days: number): string {
  return `TTL toDateTime(${column}) + INTERVAL ${Math.floor(days)} DAY`
}

/** Options of {@link analyticsDdl}. */
export interface AnalyticsDdlOptions {
  /** Raw rows older than this many days are deleted (TTL; only on ClickHouse 21+). */
  readonly retentionDays?: number | undefined
  /** Rollup rows older than this many days are deleted (TTL; only on ClickHouse 21+). */
  readonly rollupRetentionDays?: number | undefined
}

/**
 * The idempotent DDL, in order: database, raw tables, rollups, views, session minutes (a
 * `ReplacingMergeTree` whose row of the highest `version` per key is the current one). On servers before 21
 * (e.g. 18.16) timestamps are `DateTime('UTC')` plus a `UInt16` `*_ms` column; on 21+ they are
 * `DateTime64(3, 'UTC')`, low-cardinality columns are `LowCardinality(String)`, and a retention
 * option adds a TTL.
 */
export function analyticsDdl(
  tables: AnalyticsTables,
  features: ServerFeatures,
  options: AnalyticsDdlOptions = {},
): string[] {
  const { modern } = features
  const lc = modern ? 'LowCardinality(String)' : 'String'
  const time = (name: string) =>
    modern ? `${name} DateTime64(3, 'UTC')` : `${name} DateTime('UTC'), ${name}_ms UInt16`
  const ttl = (column: string, days = options.retentionDays) =>
    modern && days ? ` ${ttlExpression(column, days)}` : ''
  const db = quoteIdentifier(tables.database)
  const events = qualified(tables.database, tables.eventsTable)
  const spans = qualified(tables.database, tables.spansTable)
  const events1m = qualified(tables.database, EVENTS_1M_TABLE)
  const spans1m = qualified(tables.database, REQUEST_SPANS_1M_TABLE)
  const sessions = qualified(tables.database, tables.sessionsTable)
  return [
    `CREATE DATABASE IF NOT EXISTS ${db}`,
    `CREATE TABLE IF NOT EXISTS ${events} (
  project_id String, id String, event_type ${lc}, level ${lc}, environment ${lc},
  release ${lc}, service ${lc}, fingerprint String, message String, exception_class String,
  transaction_name String, duration_ms Nullable(Float64), trace_id String, request_id String,
  session_id String, user_id String, issue_id String, ${time('occurred_at')}, ${time('received_at')},
  context String, tag_keys Array(String), tag_values Array(String)
) ENGINE = MergeTree() PARTITION BY toYYYYMM(occurred_at) ORDER BY (project_id, occurred_at, id)${ttl('occurred_at')}`,
    `CREATE TABLE IF NOT EXISTS ${spans} (
  project_id String, id String, trace_id String, span_id String, parent_span_id String,
  name String, kind ${lc}, route String, status_code Nullable(UInt16), ${time('started_at')},
  ${time('ended_at')}, duration_ms Float64, environment ${lc}, release ${lc}, service ${lc},
  ${time('received_at')}, context String
) ENGINE = MergeTree() PARTITION BY toYYYYMM(started_at) ORDER BY (project_id, started_at, id)${ttl('started_at')}`,
    `CREATE TABLE IF NOT EXISTS ${events1m} (
  project_id String, event_type ${lc}, level ${lc}, minute DateTime('UTC'), count UInt64
) ENGINE = SummingMergeTree() PARTITION BY toYYYYMM(minute) ORDER BY (project_id, event_type, level, minute)${ttl('minute', options.rollupRetentionDays)}`,
    `CREATE TABLE IF NOT EXISTS ${spans1m} (
  project_id String, environment ${lc}, route String, minute DateTime('UTC'),
  count AggregateFunction(count), avg_duration_ms AggregateFunction(avg, Float64),
  p95_duration_ms AggregateFunction(quantile(0.95), Float64)
) ENGINE = AggregatingMergeTree() PARTITION BY toYYYYMM(minute) ORDER BY (project_id, environment, route, minute)${ttl('minute', options.rollupRetentionDays)}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${qualified(tables.database, EVENTS_1M_VIEW)} TO ${events1m} AS
SELECT project_id, event_type, level, toStartOfMinute(occurred_at) AS minute, count() AS count
FROM ${events} GROUP BY project_id, event_type, level, minute`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${qualified(tables.database, REQUEST_SPANS_1M_VIEW)} TO ${spans1m} AS
SELECT project_id, environment, route, toStartOfMinute(started_at) AS minute, countState() AS count,
  avgState(duration_ms) AS avg_duration_ms, quantileState(0.95)(duration_ms) AS p95_duration_ms
FROM ${spans} WHERE parent_span_id = '' AND kind IN ('server', 'browser')
GROUP BY project_id, environment, route, minute`,
    `CREATE TABLE IF NOT EXISTS ${sessions} (
  project_id String, release ${lc}, environment ${lc}, minute DateTime('UTC'),
  healthy Int32, errored Int32, abnormal Int32, crashed Int32, version UInt64
) ENGINE = ReplacingMergeTree(version) PARTITION BY toYYYYMM(minute) ORDER BY (project_id, release, environment, minute)${ttl('minute', options.rollupRetentionDays)}`,
  ]
}
