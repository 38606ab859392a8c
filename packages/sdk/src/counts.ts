import type { DropReason } from './transport-types'

/** Dropped records by reason. */
export type DropCounts = Partial<Record<DropReason, number>>

/** Adds `n` records dropped for `reason` to `counts` (in place). */
export function countDrop(counts: DropCounts, reason: DropReason, n = 1): void {
  counts[reason] = (counts[reason] ?? 0) + n
}
