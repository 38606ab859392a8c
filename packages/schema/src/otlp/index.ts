export { decodeOtlpLogs, decodeOtlpTraces, OTLP_CONTENT_TYPES } from './decode'
export { levelOfSeverity, otlpLogsToEnvelopes } from './map-logs'
export {
  httpStatusOf,
  type OtlpEventEnvelope,
  otlpSpansToEnvelopes,
  tisSpanKind,
} from './map-spans'
export type * from './types'
