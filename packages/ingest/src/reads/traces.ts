import { MAX_TRACE_SPANS, TRACE_EVENTS_LIMIT } from '@tis/schema'
import type { SpanRecord } from '../ports'
import { finiteOrNull, isoOrNull, isValidDate } from './stored-values'

/** The trace detail's bounds (`@tis/schema` states them in the answer's schema). */
export { MAX_TRACE_SPANS, TRACE_EVENTS_LIMIT }
/** The longest trace id a stored span can have. */
export const MAX_TRACE_ID = 1_024

/**
 * A trace's tree: each span's depth below its root (0 for roots and for spans whose parent is
 * not in the trace), and the root: the earliest span without a parent, else the earliest span
 * whose parent is missing.
 */
export function traceTree(spans: readonly SpanRecord[]) {
  const bySpanId = new Map<string, SpanRecord>()
  for (const s of spans) if (s.spanId !== null && !bySpanId.has(s.spanId)) bySpanId.set(s.spanId, s)
  const depths = new Map<SpanRecord, number>()
  const depthOf = (s: SpanRecord): number => {
    const known = depths.get(s)
    if (known !== undefined) return known
    // Walk up iteratively; a cycle (a span its own ancestor) stops at the first repeat.
    const chain: SpanRecord[] = []
    const seen = new Set<SpanRecord>()
    let at: SpanRecord | undefined = s
    let base = 0
    while (at && !seen.has(at)) {
      const d = depths.get(at)
      if (d !== undefined) {
        base = d + 1
        break
      }
      seen.add(at)
      chain.push(at)
      at = at.parentSpanId === null ? undefined : bySpanId.get(at.parentSpanId)
    }
    for (let i = chain.length - 1; i >= 0; i--) depths.set(chain[i]!, base + (chain.length - 1 - i))
    return depths.get(s)!
  }
  const root =
    spans.find((s) => s.parentSpanId === null) ??
    spans.find((s) => s.parentSpanId !== null && !bySpanId.has(s.parentSpanId)) ??
    spans[0] ??
    null
  return { root, depthOf }
}

/**
 * Spans in start order; among spans that start at the same instant (a child started within the
 * millisecond of its parent), a parent before its children, then the store's order (`id`).
 */
export function inStartOrder(
  spans: readonly SpanRecord[],
  depthOf: (s: SpanRecord) => number,
): SpanRecord[] {
  // Array.prototype.sort is stable: equal keys keep the store's order.
  return [...spans].sort(
    (a, b) => a.startedAt.getTime() - b.startedAt.getTime() || depthOf(a) - depthOf(b),
  )
}

/**
 * The earliest span start and latest span end (`ended_at`, else start plus `duration_ms`) of a
 * trace, as ISO strings; instants JavaScript cannot represent (from an old database) are skipped.
 */
export function traceExtent(spans: readonly SpanRecord[]) {
  let first = Number.POSITIVE_INFINITY
  let last = Number.NEGATIVE_INFINITY
  for (const s of spans) {
    const start = s.startedAt.getTime()
    const end = s.endedAt?.getTime() ?? start + (finiteOrNull(s.durationMs) ?? 0)
    if (isValidDate(new Date(start)) && start < first) first = start
    if (isValidDate(new Date(end)) && end > last) last = end
  }
  return { startedAt: isoOrNull(new Date(first)), endedAt: isoOrNull(new Date(last)) }
}
