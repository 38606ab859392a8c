// The public surface of @tis/schema, name by name: the wire's zod schemas and inferred types,
// the normaliser (`parse*Envelope`), the converters of Sentry's and OpenTelemetry's protocols,
// the shapes of the read and management APIs' answers (one zod schema per answer, from which the
// OpenAPI document, the serialisers' types and the dashboard's types come) and the OpenAPI
// document. Building blocks of those (field schemas, converters' helpers) stay internal.
export {
  type RotatedToken,
  rotatedTokenSchema,
  type Session,
  type SessionList,
  type SessionsEnded,
  sessionListSchema,
  sessionSchema,
  sessionsEndedSchema,
} from './answers/account-answers'
export { ACCOUNT_OPENAPI, ACCOUNT_OPERATIONS } from './answers/account-openapi'
export {
  ALERT_CHANNEL_TYPES,
  ALERT_DELIVERY_STATUSES,
  ALERT_LEVELS,
  ALERT_TRIGGERS,
  type AlertChannel,
  type AlertChannelList,
  type AlertDelivery,
  type AlertDeliveryAnswer,
  type AlertDeliveryPage,
  type AlertRule,
  type AlertRuleAnswer,
  type AlertRuleList,
  alertChannelListSchema,
  alertChannelSchema,
  alertDeliveryAnswerSchema,
  alertDeliveryPageSchema,
  alertDeliverySchema,
  alertRuleAnswerSchema,
  alertRuleListSchema,
  alertRuleSchema,
  type CreatedAlertChannel,
  createdAlertChannelSchema,
} from './answers/alerts-answers'
export {
  ALERT_LIMITS,
  ALERTS_OPENAPI,
  ALERTS_OPERATIONS,
  alertChannelRequestSchema,
  alertDeliveryQueryDoc,
  alertRuleRequestSchema,
} from './answers/alerts-operations'
export { type AlertWebhookBody, alertWebhookBodySchema } from './answers/alerts-webhook'
export {
  type BatchAccepted,
  type BatchLineResult,
  type BatchRejected,
  batchAcceptedSchema,
  batchLineResultSchema,
  batchRejectedSchema,
  MAX_BATCH_ENVELOPES,
  ROLLED_BACK_MESSAGE,
} from './answers/batch-answers'
export { BATCH_OPENAPI, BATCH_OPERATION } from './answers/batch-openapi'
export { component } from './answers/common'
export {
  type DataScrubbing,
  type DataScrubbingAnswer,
  dataScrubbingAnswerSchema,
  dataScrubbingSchema,
} from './answers/data-scrubbing-answers'
export {
  healthSchema,
  type Liveness,
  projectionLagSchema,
  type Readiness,
  type ReadinessUnavailable,
  readySchema,
  unavailableSchema,
} from './answers/health-answers'
export {
  type ApiKey,
  type ApiKeyList,
  apiKeyListSchema,
  apiKeySchema,
  type CreatedApiKey,
  type CreatedUser,
  createdApiKeySchema,
  createdUserSchema,
  type Member,
  type MemberAdded,
  type MemberAddedAnswer,
  type MemberList,
  type MobileToken,
  type MobileTokenList,
  memberAddedAnswerSchema,
  memberAddedSchema,
  memberListSchema,
  memberSchema,
  mobileTokenListSchema,
  mobileTokenSchema,
  type Project,
  type ProjectAnswer,
  type ProjectList,
  projectAnswerSchema,
  projectListSchema,
  projectSchema,
  type RateLimitAnswer,
  type RateLimits,
  rateLimitAnswerSchema,
  rateLimitsSchema,
  type User,
  userSchema,
} from './answers/management-answers'
export { HEALTH_OPERATIONS, MANAGEMENT_OPENAPI } from './answers/management-openapi'
export { MANAGEMENT_OPERATIONS } from './answers/management-operations'
export {
  type ApiOperation,
  type ApiResponse,
  operationPaths,
  schemaOrRef,
} from './answers/operations'
export { READ_COMPONENTS } from './answers/reads-components'
export {
  type DeploymentPage,
  deploymentPageSchema,
  type StoredDeployment,
  storedDeploymentSchema,
} from './answers/reads-deployments'
export { type EventDetail, eventDetailSchema } from './answers/reads-event-detail'
export {
  type EventPage,
  eventPageSchema,
  type StoredEvent,
  storedEventSchema,
} from './answers/reads-events'
export {
  type IssueActivity,
  type IssueActivityPage,
  type IssueComment,
  type IssueCommentAnswer,
  type IssueCommentPage,
  issueActivityKindSchema,
  issueActivityPageSchema,
  issueActivitySchema,
  issueCommentAnswerSchema,
  issueCommentCreateSchema,
  issueCommentPageSchema,
  issueCommentSchema,
  MAX_COMMENT_LENGTH,
} from './answers/reads-issue-history'
export {
  type IssueMerge,
  type IssueMergeAnswer,
  type IssueMerged,
  issueMergeAnswerSchema,
  issueMergedSchema,
  issueMergeSchema,
  MAX_MERGE_ISSUES,
} from './answers/reads-issue-merge'
export {
  type Issue,
  type IssueAnswer,
  type IssueBulkAnswer,
  type IssuePage,
  type IssueUpdate,
  issueAnswerSchema,
  issueBulkAnswerSchema,
  issueBulkUpdateSchema,
  issuePageSchema,
  issueSchema,
  issueStatusSchema,
  issueUpdateSchema,
  MAX_BULK_ISSUES,
} from './answers/reads-issues'
export {
  MAX_DETAIL_FRAMES,
  MAX_METRIC_BUCKETS,
  MAX_PAGE_SIZE,
  MAX_TRACE_SPANS,
  RELATED_EVENTS_LIMIT,
  TRACE_EVENTS_LIMIT,
} from './answers/reads-limits'
export {
  type CheckInPage,
  checkInPageSchema,
  type Monitor,
  type MonitorAnswer,
  type MonitorPage,
  monitorAnswerSchema,
  monitorPageSchema,
  monitorSchema,
  type StoredCheckIn,
  storedCheckInSchema,
} from './answers/reads-monitors'
export {
  type LatencyBucket,
  type LatencySeries,
  latencyBucketSchema,
  latencySeriesSchema,
  type MetricBucket,
  type MetricSeries,
  metricBucketSchema,
  metricSeriesSchema,
  type Transaction,
  type TransactionList,
  transactionListSchema,
  transactionSchema,
} from './answers/reads-performance'
export {
  type ReleaseDetail,
  type ReleaseHealth,
  type ReleasePage,
  releaseDetailSchema,
  releaseHealthSchema,
  releasePageSchema,
  releaseSeriesBucketSchema,
} from './answers/reads-releases'
export {
  type ShownSpan,
  type Span,
  spanSchema,
  type TraceDetail,
  type TraceList,
  type TraceSpan,
  traceDetailSchema,
  traceListSchema,
  traceSpanSchema,
} from './answers/reads-traces'
export {
  formatBytes,
  type Retention,
  type RetentionAnswer,
  retentionAnswerSchema,
  retentionSchema,
} from './answers/retention-answers'
export {
  DEFAULT_CONTEXT_LINES,
  type EventFrames,
  type ExcerptLine,
  eventFramesSchema,
  excerptLineSchema,
  FRAME_SOURCE_FAILURES,
  type Frame,
  type FrameSource,
  type FrameSourceExcerpt,
  type FrameSourceFailure,
  type FrameSourceFailureStatus,
  frameSchema,
  frameSourceExcerptSchema,
  frameSourceFailureSchema,
  frameSourceSchema,
  MAX_CONTEXT_LINES,
  MAX_LINE_CHARS,
  type SourceCommit,
  type SourceSettings,
  type SourceSettingsAnswer,
  sourceCommitSchema,
  sourceSettingsAnswerSchema,
  sourceSettingsSchema,
} from './answers/source-answers'
export {
  SOURCE_OPENAPI,
  SOURCE_OPERATIONS,
  sourceSettingsRequestSchema,
} from './answers/source-openapi'
export {
  ARTIFACT_FILE_TYPES,
  type ArtifactBundleJson,
  type ArtifactFileJson,
  artifactBundleDetailSchema,
  artifactBundleListSchema,
  artifactBundleSchema,
  artifactFileSchema,
} from './answers/sourcemaps-answers'
export { SOURCEMAPS_OPENAPI, SOURCEMAPS_OPERATIONS } from './answers/sourcemaps-operations'
export {
  assembleRequestSchema,
  assembleStateSchema,
  SENTRY_UPLOAD_OPERATIONS,
  sentryErrorSchema,
} from './answers/sourcemaps-upload-operations'
export {
  checkInSchema,
  DEFAULT_CHECK_IN_INTERVAL_SECONDS,
  type NormalizedCheckIn,
  type ParseCheckInOptions,
  parseCheckInEnvelope,
} from './check-in'
export { type EventContext, eventContextSchema } from './context'
export { CONTEXT_RULES, type ContextRule } from './context-rules'
export {
  DEFAULT_DEPLOYMENT_ENVIRONMENT,
  deploymentSchema,
  type NormalizedDeployment,
  parseDeploymentEnvelope,
} from './deployment'
export {
  EVENT_TYPES,
  type EventType,
  INTEGRATION_KINDS,
  type IntegrationKind,
  MOBILE_PLATFORMS,
  type MobilePlatform,
  REPOSITORY_ALIASES,
  SPAN_KINDS,
  type SpanKind,
} from './enums'
export { ENVELOPE_KEYS, type EnvelopeKey, missingEnvelopeMessage, unwrapEnvelope } from './envelope'
export {
  EVENT_FIELDS,
  eventSchema,
  type NormalizedEvent,
  type ParseEventOptions,
  parseEventEnvelope,
} from './event'
export {
  isAbsoluteUri,
  isHttpUrl,
  isRfc3339DateTime,
  isStorableDateTime,
  normalizeRepository,
  parseDateTime,
} from './formats'
export { canonicalizeKeys, type JsonObject, type KeySpec, toSnakeCase } from './keys'
export { jsonDepth, LIMITS, NUMERIC_BOUNDS } from './limits'
export {
  apiKeyRequestSchema,
  dataScrubbingRequestSchema,
  MANAGEMENT_FIELDS,
  MAX_SCRUBBING_FIELD_LENGTH,
  MAX_SCRUBBING_FIELDS,
  type ManagementEnvelopeKey,
  type ManagementRecords,
  memberRequestSchema,
  parseManagementEnvelope,
  projectRequestSchema,
  rateLimitRequestSchema,
  retentionRequestSchema,
  userRequestSchema,
} from './management'
export {
  MOBILE_TOKEN_EXPIRY,
  mobileTokenRequestSchema,
  type NormalizedMobileTokenRequest,
  parseMobileTokenEnvelope,
} from './mobile-token'
export { createOpenApiDocument } from './openapi'
export { toOpenApiSchema } from './openapi-components'
export {
  CONTRACT_VERSION,
  OPENAPI_VERSION,
  type OpenApiDocument,
  type OpenApiExtension,
  type OpenApiObject,
  type OpenApiOptions,
} from './openapi-types'
export { decodeOtlpLogs, decodeOtlpTraces, OTLP_CONTENT_TYPES } from './otlp/decode'
export { otlpLogsToEnvelopes } from './otlp/map-logs'
export {
  type OtlpEventEnvelope,
  otlpSpanEnvelopeGroups,
  otlpSpansToEnvelopes,
} from './otlp/map-spans'
export {
  encodeOtlpExportResponse,
  encodeOtlpStatus,
  OTLP_RPC_CODES,
  type OtlpEncoding,
  type OtlpSignal,
} from './otlp/response'
export type {
  OtlpAttributes,
  OtlpDecodeResult,
  OtlpLogRecord,
  OtlpLogs,
  OtlpResourceLogs,
  OtlpResourceSpans,
  OtlpScope,
  OtlpSpan,
  OtlpSpanEvent,
  OtlpTraces,
  OtlpValue,
} from './otlp/types'
export { type NormalizedRecords, type ParseOptions, parseEnvelope } from './parse'
export {
  type AcceptedCheckIn,
  type AcceptedDeployment,
  type AcceptedEvent,
  type AcceptedSpan,
  type AnalyticsReadiness,
  acceptedCheckInSchema,
  acceptedDeploymentSchema,
  acceptedEventSchema,
  acceptedSpanSchema,
  analyticsReadinessSchema,
  ERROR_BODIES,
  type ErrorBody,
  errorBodySchema,
  type MobileTokenResponse,
  mobileTokenResponseSchema,
  type RateLimitErrorBody,
  rateLimitErrorBodySchema,
  type ValidationErrorBody,
  validationErrorBodySchema,
} from './responses'
export type {
  KnownFields,
  ParseBadRequest,
  ParseResult,
  ParseSuccess,
  ParseUnprocessable,
} from './result'
export {
  type AssigneeMatch,
  EVENT_SEARCH_KEYS,
  ISSUE_SEARCH_KEYS,
  ISSUE_SORTS,
  type IssueSort,
  parseSearch,
  SEARCH_STATUSES,
  type SearchBound,
  type SearchCountField,
  type SearchFilter,
  type SearchOp,
  type SearchResult,
  type SearchStatus,
  type SearchTimeField,
  type SearchValueField,
} from './search/search'
export {
  MAX_SEARCH_LENGTH,
  MAX_SEARCH_LIST,
  MAX_SEARCH_TOKENS,
  type SearchToken,
  tokenizeSearch,
} from './search/tokens'
export {
  parseSentryEnvelope,
  SENTRY_ENVELOPE_MAX_ITEMS,
  type SentryEnvelope,
  type SentryEnvelopeItem,
  type SentryEnvelopeResult,
} from './sentry/envelope'
export {
  SENTRY_MAX_BREADCRUMBS,
  SENTRY_MAX_DEBUG_IMAGES,
  sentryEventEnvelope,
} from './sentry/event'
export {
  SENTRY_STORED_ITEM_TYPES,
  type SentryRecord,
  type SentryRecords,
  type SentryRecordsResult,
  sentryEnvelopeRecords,
  sentryStoreRecords,
} from './sentry/records'
export { SENTRY_MAX_STREAMED_SPANS } from './sentry/span'
export { SENTRY_MAX_SPANS } from './sentry/transaction'
export { parseSessionEnvelope, SESSION_ENVELOPE_KEYS } from './sessions/envelope'
export {
  DEFAULT_SESSION_ENVIRONMENT,
  readSessionAggregate,
  readSessionUpdate,
  SESSION_LIMITS,
  SESSION_STATUSES,
  type SessionAggregate,
  type SessionBucket,
  type SessionParse,
  type SessionRecord,
  type SessionStatus,
  type SessionUpdate,
} from './sessions/session'
export { storedSpanKind } from './span-kind'
export { STACK_FINGERPRINT_FRAMES, stackFingerprint } from './stack-fingerprint'
export { STATUS_CODE_LOCATIONS, statusCodeOf } from './status-code'
export { NESTED_TRACE_ID_LOCATIONS } from './trace-id'
export { TRUNCATION_MARKER, truncateText } from './truncate'
