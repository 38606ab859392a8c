import { AGGREGATE_BOUNDS } from '@tis/ingest'

// SQL of the stored numbers the reads aggregate, within the ranges the engine accepts. A row of an
// old database whose value is outside (1e308, -1e308, NaN, ±Infinity: NaN compares above every
// number in PostgreSQL) counts as having no value, so sum, avg and percentile_cont over any number
// of rows stay finite instead of failing with "value out of range: overflow".

/** A `duration_ms` column from 0 to 365 days, else `null`. */
export const boundedDuration = (column: string): string =>
  `(case when ${column} >= 0::float8 and ${column} <= ${AGGREGATE_BOUNDS.maxDurationMs}::float8 then ${column} end)`

/** A metric `value` column of magnitude at most 1e20, else `null`. */
export const boundedMetricValue = (column: string): string =>
  `(case when ${column} >= -${AGGREGATE_BOUNDS.maxMetricMagnitude}::float8 and ${column} <= ${AGGREGATE_BOUNDS.maxMetricMagnitude}::float8 then ${column} end)`
