export { intervalOfSchedule, sentryCheckInEnvelope } from './check-in'
export {
  parseSentryEnvelope,
  SENTRY_ENVELOPE_MAX_ITEMS,
  type SentryEnvelope,
  type SentryEnvelopeItem,
  type SentryEnvelopeResult,
} from './envelope'
export { SENTRY_MAX_BREADCRUMBS, SENTRY_MAX_DEBUG_IMAGES, sentryEventEnvelope } from './event'
export { sentryLogEnvelopes } from './log'
export {
  SENTRY_STORED_ITEM_TYPES,
  type SentryRecord,
  type SentryRecords,
  type SentryRecordsResult,
  sentryEnvelopeRecords,
  sentryStoreRecords,
} from './records'
export { attributeValues, SENTRY_MAX_STREAMED_SPANS, sentrySpanEnvelopes } from './span'
export { SENTRY_MAX_SPANS, sentryTransactionEnvelopes, spanKindOfOp } from './transaction'
