/** Starts a timer that never keeps a Node process alive (no-op `unref` in browsers). */
export function unrefTimeout(fn: () => void, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(fn, ms)
  ;(timer as { unref?: () => void }).unref?.()
  return timer
}

/**
 * Seconds to wait from a `Retry-After` header (integer seconds, as tis sends; at least one),
 * or `fallback` when it is missing or not a number.
 */
export function parseRetryAfter(header: string | null, fallback: number): number {
  const seconds = Number(header)
  return header?.trim() && Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds)) : fallback
}
