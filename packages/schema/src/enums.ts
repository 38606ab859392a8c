/** The six telemetry kinds (`event_type`). */
export const EVENT_TYPES = ['error', 'log', 'metric', 'transaction', 'span', 'check_in'] as const
/** One telemetry kind. */
export type EventType = (typeof EVENT_TYPES)[number]

/** Span kinds (`kind`, alias `span_kind`); roots use `server` or `browser`. */
export const SPAN_KINDS = [
  'app',
  'browser',
  'cache',
  'db',
  'http',
  'internal',
  'queue',
  'render',
  'resource',
  'server',
] as const
/** One span kind. */
export type SpanKind = (typeof SPAN_KINDS)[number]

/** Mobile platforms a mobile ingest token can be minted for. */
export const MOBILE_PLATFORMS = ['android', 'ios'] as const
/** One mobile platform. */
export type MobilePlatform = (typeof MOBILE_PLATFORMS)[number]

/** Aliases of `repository` accepted by events and deployments. */
export const REPOSITORY_ALIASES = {
  repo: 'repository',
  github_repository: 'repository',
} as const

/** Integration kinds a project can have (management API). */
export const INTEGRATION_KINDS = [
  'javascript',
  'node',
  'python',
  'ruby',
  'dotnet',
  'cfml',
  'android',
  'ios',
  'http_api',
] as const
/** One integration kind. */
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number]
