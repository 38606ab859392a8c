export * from './answers'
export * from './check-in'
export * from './context'
export { CONTEXT_RULES, type ContextRule } from './context-rules'
export * from './deployment'
export * from './enums'
export * from './envelope'
export * from './event'
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
export * from './management'
export * from './mobile-token'
export * from './openapi'
export * from './otlp'
export * from './parse'
export * from './responses'
export type {
  KnownFields,
  ParseBadRequest,
  ParseResult,
  ParseSuccess,
  ParseUnprocessable,
} from './result'
export * from './sentry'
export * from './span-kind'
export { groupingFile, STACK_FINGERPRINT_FRAMES, stackFingerprint } from './stack-fingerprint'
export * from './status-code'
export * from './trace-id'
export { TRUNCATION_MARKER, truncateText } from './truncate'
