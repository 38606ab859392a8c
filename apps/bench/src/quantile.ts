// The one percentile rule of the benches: nearest rank, so every reported p50, p95 or p99 is a
// value that was measured, never an interpolation between two.

/** The value at quantile `q` (0 to 1) of ascending `sorted`, by nearest rank; NaN when empty. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)))
  return sorted[rank - 1] ?? Number.NaN
}

/** The median of `values` in any order (the lower of the two middle values of an even count). */
export const median = (values: readonly number[]): number =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  )
