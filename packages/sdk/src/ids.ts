/**
 * `template` with each `0` and `1` made a random hex digit and each `8` one of 8, 9, a, b (the
 * RFC 4122 variant). `crypto.getRandomValues` where present: Node 18 has no global `crypto`
 * without a flag, so it falls back to `Math.random` rather than import `node:crypto`.
 */
function fill(template: string): string {
  const crypto = (globalThis as { crypto?: Crypto }).crypto
  const bytes = crypto?.getRandomValues?.(new Uint8Array(template.length))
  let i = 0
  return template.replace(/[018]/g, (c) =>
    (+c ^ ((bytes ? bytes[i++]! : Math.random() * 16) & (15 >> (+c / 4)))).toString(16),
  )
}

/** A random RFC 4122 version 4 UUID (the `event_id` of every record the SDK sends). */
export const generateUuid = (): string => fill('10000000-1000-4000-8000-100000000000')

/** A W3C trace id: 32 lowercase hex characters. */
export const generateTraceId = (): string => fill('00000000000000000000000000000000')

/** A W3C span id: 16 lowercase hex characters. */
export const generateSpanId = (): string => fill('0000000000000000')
