import { isHttpUrl, NUMERIC_BOUNDS } from '@tis/schema'

/**
 * The ranges of stored numbers that reads aggregate: the same as the ingestion bounds
 * of `@tis/schema`. A database written before those bounds existed (or by hand) may hold any
 * float8, such as `1e308`, `-1e308`, `NaN` or `Infinity`; stores leave a value outside its range
 * out of sums, averages, minima, maxima and percentiles, as if it had none, so an aggregate over
 * any number of rows stays finite and no read fails on data.
 */
export const AGGREGATE_BOUNDS = {
  /** `duration_ms` of transactions is aggregated when from 0 to this (365 days). */
  maxDurationMs: NUMERIC_BOUNDS.maxDurationMs,
  /** A metric's value is aggregated when its magnitude is at most this (1e20). */
  maxMetricMagnitude: NUMERIC_BOUNDS.maxMetricMagnitude,
} as const

/** A number a JSON answer can carry: `null` for `NaN`, `±Infinity`, `null` and `undefined`. */
export function finiteOrNull(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

/**
 * A stored instant as an ISO 8601 string, or `null` when it has none JavaScript can represent
 * (a BC date or `±infinity` in an old database): `toISOString()` would throw on it.
 */
export function isoOrNull(value: Date | null | undefined): string | null {
  return value instanceof Date && Number.isFinite(value.getTime()) ? value.toISOString() : null
}

/** True for a `Date` with a representable instant. */
export function isValidDate(value: unknown): value is Date {
  return value instanceof Date && Number.isFinite(value.getTime())
}

/**
 * A stored link as the read API returns it: the URL when it is `http:` or `https:`, else `null`
 * (rows stored before links were checked may hold `javascript:` or `data:` URLs).
 */
export function linkOrNull(value: string | null): string | null {
  return value !== null && isHttpUrl(value) ? value : null
}

/**
 * A stored JSON object as the read API returns it (an event's or span's `context`): the object,
 * else `{}` (absent, or a value of another type written by hand into an old database).
 */
export function objectOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}
}
