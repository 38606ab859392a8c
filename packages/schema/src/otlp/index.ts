export { decodeOtlpLogs, decodeOtlpTraces, OTLP_CONTENT_TYPES } from './decode'
export { levelOfSeverity, otlpLogsToEnvelopes } from './map-logs'
export {
  httpStatusOf,
  type OtlpEventEnvelope,
  otlpSpanEnvelopeGroups,
  otlpSpansToEnvelopes,
  tisSpanKind,
} from './map-spans'
export {
  encodeOtlpExportResponse,
  encodeOtlpStatus,
  OTLP_RPC_CODES,
  type OtlpEncoding,
  type OtlpSignal,
} from './response'
export type * from './types'
