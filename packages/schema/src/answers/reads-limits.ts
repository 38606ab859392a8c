// The sizes the read API's answers are bounded by; the engine enforces them, the schemas and the
// OpenAPI document state them.

/** The most buckets one metric or latency read returns. */
export const MAX_METRIC_BUCKETS = 1_440
/** The most spans `GET …/traces/:trace_id` returns (earliest first); more set `truncated`. */
export const MAX_TRACE_SPANS = 5_000
/** How many non-span events of a trace `GET …/traces/:trace_id` shows. */
export const TRACE_EVENTS_LIMIT = 100
/** How many related events `GET …/events/:event_id` shows. */
export const RELATED_EVENTS_LIMIT = 20
/** The most stack frames the event detail shows. */
export const MAX_DETAIL_FRAMES = 50
/** The largest page of a list read; a larger `limit` is capped to it. */
export const MAX_PAGE_SIZE = 200
