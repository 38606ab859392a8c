/** The caller's position in a W3C trace, read from its `traceparent` header. */
export interface TraceParent {
  /** 32 lowercase hex characters. */
  readonly traceId: string
  /** The caller's span: 16 lowercase hex characters. */
  readonly parentSpanId: string
  /** The caller's `sampled` flag. */
  readonly sampled: boolean
}

// version-traceid-parentid-flags; later versions may append fields, version 00 may not.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/
const ZEROS = /^0+$/

/**
 * Parses a W3C `traceparent` header (Trace Context level 1). Anything invalid — uppercase hex,
 * version `ff`, all-zero ids, several headers at once — gives `undefined`, so a new trace starts.
 */
export function parseTraceparent(header: unknown): TraceParent | undefined {
  if (typeof header !== 'string') return undefined
  const match = TRACEPARENT.exec(header.trim())
  if (!match) return undefined
  const [, version, traceId = '', parentSpanId = '', flags = '', rest] = match
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined
  if (ZEROS.test(traceId) || ZEROS.test(parentSpanId)) return undefined
  return { traceId, parentSpanId, sampled: (Number.parseInt(flags, 16) & 1) === 1 }
}
