import type { DropReason } from './transport-types'

/** Dropped records by reason. */
export type DropCounts = Partial<Record<DropReason, number>>

/** The sum of two sets of drop counts (a new object). */
export function addCounts(a: DropCounts, b: DropCounts): DropCounts {
  const out = { ...a }
  for (const reason in b) {
    const key = reason as DropReason
    out[key] = (out[key] ?? 0) + (b[key] ?? 0)
  }
  return out
}
