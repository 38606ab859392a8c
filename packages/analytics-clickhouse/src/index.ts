// The public surface of @tis/analytics-clickhouse, name by name: the store (schema, readiness,
// the exactly-once sink, retention), its settings and DDL, and the drainer that exports the
// outbox (events, spans and session minutes) into it. SQL quoting, row conversion helpers and retry arithmetic stay internal.
export {
  type AnalyticsDrainer,
  type AnalyticsDrainerOptions,
  type AnalyticsDrainerStats,
  createAnalyticsDrainer,
  type DrainFailureKind,
} from './drainer'
export { AnalyticsError, type AnalyticsErrorCode } from './errors'
export { type ExpiringTable, expiringTables, upgradeTtl } from './retention'
export {
  type ClickHouseRow,
  eventRow,
  sessionMinuteRow,
  spanRow,
  type TimestampLayout,
} from './rows'
export {
  type AnalyticsDdlOptions,
  type AnalyticsTables,
  analyticsDdl,
  DEFAULT_ANALYTICS_TABLES,
  EVENTS_1M_TABLE,
  EVENTS_1M_VIEW,
  REQUEST_SPANS_1M_TABLE,
  REQUEST_SPANS_1M_VIEW,
  requiredTableNames,
} from './schema'
export { detectServerFeatures, featuresOf, type ServerFeatures } from './server-features'
export {
  type AnalyticsClientOptions,
  type AnalyticsSettings,
  type AnalyticsSettingsResult,
  analyticsEnvSchema,
  clickHouseClientOptions,
  parseAnalyticsSettings,
} from './settings'
export type { AnalyticsInsertResult, AnalyticsSink } from './sink'
export {
  type AnalyticsReadiness,
  type ClickHouseAnalyticsStore,
  type ClickHouseAnalyticsStoreOptions,
  createClickHouseAnalyticsStore,
} from './store'
export type { FailureReport } from './throttle'
