// The public surface of @tis/ingest: what the reference server, the adapters and embedders
// use. Everything else is internal to the engine.
export type { EventType, IntegrationKind, MobilePlatform } from '@tis/schema'
export { type AccountApi, type AccountApiOptions, createAccountApi } from './account/api'
export {
  DEFAULT_SESSION_SETTINGS,
  type OpenedSession,
  type ResolvedSession,
  type SessionClient,
  type SessionSettings,
} from './account/sessions'
export {
  backoffMs,
  RETRY_CAP_SECONDS,
  RETRY_DELAYS_SECONDS,
  RETRY_JITTER,
  RETRY_WINDOW_MS,
  retryAfterMs,
} from './alerts/backoff'
export { type AlertsApi, type AlertsApiOptions, createAlertsApi } from './alerts/config-api'
export {
  type AlertDispatcher,
  type AlertDispatcherOptions,
  type AlertDispatchRound,
  createAlertDispatcher,
} from './alerts/dispatch'
export { type AlertEmail, alertEmail, type Mailer } from './alerts/email'
export { alertChannelJson, alertDeliveryJson, alertRuleJson } from './alerts/json'
export { alertText } from './alerts/message'
export { type WebhookBody, webhookBody } from './alerts/render'
export { SIGNATURE_HEADER, signatureOf } from './alerts/sign'
export { escapeSlack, type SlackMessage, slackMessage } from './alerts/slack'
export {
  checkAlertTarget,
  type HostResolver,
  isIpLiteral,
  isPrivateAddress,
  type TargetCheck,
  type TargetPolicy,
} from './alerts/targets'
export type { WebhookAnswer, WebhookRequest, WebhookSend } from './alerts/webhook-send'
export { type AlertsWorkerOptions, createAlertsWorker } from './engine/alerts-worker'
export { createEngine } from './engine/create-engine'
export { EMBEDDED_ROUND_SIZE, projectorErrors, SHUTDOWN_DRAIN_MS } from './engine/projection'
export type {
  Engine,
  EngineAdapters,
  EngineAlertsConfig,
  EngineConfig,
  EngineHttpConfig,
  EngineOptions,
  EngineProjectionConfig,
  EngineRetentionConfig,
  EngineStore,
} from './engine/types'
export { StoreError, type StoreErrorCode } from './errors'
export type { EngineRequest, EngineResponse } from './http'
export {
  createHttpHandler,
  type HandleContext,
  type HttpHandler,
  type HttpHandlerOptions,
} from './http/handle'
export {
  type EngineOpenApiOptions,
  engineOpenApiDocument,
  type HostOperation,
  openApiPath,
} from './http/openapi'
export {
  type BodyCap,
  type BodyKind,
  HTTP_OPERATIONS,
  type HttpApis,
  type HttpMethod,
  type HttpOperation,
  type ServedApis,
} from './http/operations'
export { OTLP_PATHS, SENTRY_PATHS } from './http/operations-ingest'
export { sha256Hex } from './ids'
export { createIngestApi, type IngestApi, type IngestApiOptions } from './ingest/api'
export { ROLLED_BACK_MESSAGE } from './ingest/batch-answer'
export { type BatchLimits, DEFAULT_BATCH_LIMITS, MAX_BATCH_ENVELOPES } from './ingest/batch-lines'
export type { BatchWriterOptions } from './ingest/batch-writer'
export { issueGrouping } from './ingest/grouping'
export { DEFAULT_MAX_BODY_BYTES } from './ingest/request-body'
export type {
  IngestLog,
  LogTarget,
  ProjectionEnricher,
  ProjectionLag,
  ProjectionRound,
  ProjectionStore,
} from './log/ports'
export {
  PROJECTION_MAX_LAG_SECONDS,
  type ProjectionHealthOptions,
  withProjectionLag,
} from './log/projection-health'
export { createProjector, type Projector, type ProjectorOptions } from './log/projector'
export {
  createReadBarrier,
  PROJECTION_LAG_HEADER,
  PROJECTION_LAG_RECORDS_HEADER,
  READ_BARRIER_BOUND_MS,
  type ReadBarrier,
  type ReadBarrierOptions,
  type ReadLag,
  readBehind,
  readLag,
  withReadBarrier,
} from './log/read-barrier'
export type { EngineLogger } from './logger'
export { createLoop, type Loop, type LoopOptions, type LoopRound } from './loop'
export {
  createProjectAccess,
  type ManagementOperation,
  type ProjectAccess,
  type ProjectAccessOptions,
} from './management/access'
export {
  createManagementApi,
  type ManagementApi,
  type ManagementApiOptions,
} from './management/api'
export { type BootstrapOptions, type BootstrapResult, bootstrapAdmin } from './management/bootstrap'
export type {
  AcceptanceStore,
  AlertAttempt,
  AlertChannelRecord,
  AlertChannelType,
  AlertConfigStore,
  AlertDeliveryQuery,
  AlertDeliveryRecord,
  AlertDeliveryStatus,
  AlertDeliveryStore,
  AlertPayload,
  AlertRuleRecord,
  AlertSummary,
  AlertTrigger,
  AnalyticsOutbox,
  ApiKeyRecord,
  ApiKeyStore,
  ArtifactBundleRecord,
  ArtifactChunkStore,
  ArtifactFile,
  ArtifactFileType,
  ArtifactLookup,
  ArtifactStore,
  CachedSourceFile,
  CheckInQuery,
  CheckInRecord,
  CheckInSource,
  ClaimedAlertDelivery,
  CountCursor,
  CredentialKind,
  CredentialRecord,
  CredentialStore,
  DataScrubbingSettings,
  DeploymentQuery,
  DeploymentRecord,
  DeploymentUpsert,
  EventQuery,
  EventRecord,
  ExistingRecord,
  IgnoreCondition,
  IngestStore,
  IssueActivityBucket,
  IssueActivityQuery,
  IssueActor,
  IssueChange,
  IssueCommentRecord,
  IssueGrouping,
  IssueHistoryEntry,
  IssueHistoryKind,
  IssueHistoryQuery,
  IssueMergeMissing,
  IssueMergeResult,
  IssueMergeStore,
  IssueQuery,
  IssueRecord,
  IssueStatus,
  IssueTriageStore,
  KeysetCursor,
  ManagementStore,
  MemberRecord,
  MetricBucket,
  MetricQuery,
  MobileBinding,
  MobileTokenRecord,
  MobileTokenStore,
  MonitorQuery,
  MonitorRecord,
  MonitorUpdate,
  NewAlertChannel,
  NewArtifactBundle,
  NewMobileToken,
  NewSession,
  OutboxClaim,
  OutboxEventRow,
  OutboxRecord,
  OutboxSessionMinuteRow,
  OutboxSpanRow,
  OutboxStats,
  ProjectExpiry,
  ProjectLookup,
  ProjectRecord,
  ProjectStatus,
  ProjectStore,
  RateLimitOverride,
  RateLimitStore,
  ReadinessProbe,
  ReadStore,
  RelatedEventsQuery,
  ReleaseHealthRecord,
  ReleaseHealthStore,
  ReleaseListQuery,
  ReleaseSeriesBucket,
  ReleaseWindow,
  RetentionPassOptions,
  RetentionReport,
  RetentionStore,
  RootSpanQuery,
  SessionRecord,
  SessionStore,
  SessionTotals,
  SessionWithUser,
  SourceCredentials,
  SourceFailure,
  SourceFileKey,
  SourceFileResult,
  SourceProvider,
  SourceProviderFactory,
  SourceSettingsRecord,
  SourceStore,
  SpanRecord,
  StorageUsage,
  StorageUsageOptions,
  StoredArtifact,
  TransactionLatencyBucket,
  TransactionLatencyQuery,
  TransactionQuery,
  TransactionSummary,
  UsageFigure,
  UserRecord,
  UserStore,
  WindowIncrement,
  WriteBase,
  WriteOp,
  WriteOptions,
  WriteResult,
} from './ports'
export { DEFAULT_DATA_SCRUBBING, STORAGE_USAGE_EXACT_ROWS } from './ports'
export {
  createMemoryRateLimiter,
  DEFAULT_RATE_LIMITS,
  type RateLimiter,
  type RateLimitSettings,
  type RateLimitState,
  windowState,
} from './rate-limit'
export { createReadinessCheck, type ReadinessOptions } from './readiness'
export { createReadApi, type ReadApi, type ReadApiOptions } from './reads/api'
export { READ_OPERATIONS, READS_OPENAPI } from './reads/openapi'
export type { ReadSourceMaps } from './reads/resolved-events'
export { AGGREGATE_BOUNDS } from './reads/stored-values'
export { MAX_TRACE_SPANS, TRACE_EVENTS_LIMIT } from './reads/traces'
export { MAX_METRIC_BUCKETS } from './reads/window-query'
export { createReleaseReads, type ReleaseReads } from './releases/api'
export {
  DEFAULT_RELEASE_WINDOW_DAYS,
  freeRate,
  releaseJson,
  seriesInterval,
  userHours,
} from './releases/window'
export {
  isTerminalStatus,
  mergeSessionState,
  type OutcomeCounts,
  outcomeDelta,
  outcomeName,
  outcomeOf,
  SESSION_OUTCOME,
  type SessionOutcome,
  type SessionState,
  stateOf,
} from './sessions/status'
export { createSharedRateLimiter, type SharedRateLimiterOptions } from './shared-rate-limit'
export { DEFAULT_CONTEXT_LINES, MAX_CONTEXT_LINES } from './source/excerpt'
export {
  createSourceExcerpts,
  GITHUB_API_URL,
  type SourceExcerpts,
  type SourceExcerptsOptions,
  type SourceLogger,
} from './source/excerpts'
export { createSecretBox } from './source/secret-box'
export {
  createSourceSettingsApi,
  type SourceSettingsApi,
  type SourceSettingsApiOptions,
} from './source/settings-api'
export {
  type BundleFile,
  normalDebugId,
  type ParsedBundle,
  parseArtifactBundle,
} from './sourcemaps/bundle'
export {
  type ArtifactBundleInput,
  type BundleFileInput,
  bundleDebugId,
  bundleEntryName,
  writeArtifactBundle,
} from './sourcemaps/bundle-writer'
export {
  type CachedMap,
  DEFAULT_SOURCE_MAP_CACHE_BYTES,
  type MapCacheStats,
} from './sourcemaps/map-cache'
export {
  createSourceMapResolver,
  type SourceMapResolver,
  type SourceMapResolverOptions,
} from './sourcemaps/resolve'
export type { EventToResolve } from './sourcemaps/resolve-events'
export type { FrameSourceMap } from './sourcemaps/resolve-frames'
export {
  createSourceMapsApi,
  type SourceMapsApi,
  type SourceMapsApiOptions,
  type SourceMapsOperation,
} from './sourcemaps/upload-api'
export { BUNDLE_LIST_LIMIT } from './sourcemaps/upload-bundles'
export { CHUNK_ACCEPT } from './sourcemaps/upload-chunks'
export {
  chunkBodyCap,
  DEFAULT_SOURCE_MAP_LIMITS,
  type SourceMapLimits,
} from './sourcemaps/upload-limits'
export { NULL_COMMIT_SHA, UNKNOWN_REPOSITORY } from './sourcemaps/upload-releases'
