/** Starts a timer that never keeps a Node process alive (no-op `unref` in browsers). */
export function unrefTimeout(fn: () => void, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(fn, ms)
  ;(timer as { unref?: () => void }).unref?.()
  return timer
}

/**
 * Seconds to wait from a `Retry-After` header (integer seconds or an HTTP date), at least one
 * second; `fallback` when the header is missing or unreadable.
 */
export function parseRetryAfter(header: string | null, now: number, fallback: number): number {
  if (header === null) return fallback
  const seconds = Number(header)
  if (header.trim() !== '' && Number.isFinite(seconds)) return Math.max(1, Math.ceil(seconds))
  const date = Date.parse(header)
  if (Number.isNaN(date)) return fallback
  return Math.max(1, Math.ceil((date - now) / 1000))
}
