/**
 * The wait after each failed attempt, in seconds: 10 s, 30 s, 1, 2, 5 and 10 minutes, then
 * every 15 minutes (docs/alerts.md, "Retry schedule").
 */
export const RETRY_DELAYS_SECONDS: readonly number[] = [10, 30, 60, 120, 300, 600]

/** The wait between attempts once the list above is used up, and the most `Retry-After` gets. */
export const RETRY_CAP_SECONDS = 900

/** How long after it was recorded a notification is given up on (`failed`), in ms. */
export const RETRY_WINDOW_MS = 24 * 3600 * 1000

/** Each wait is scaled by a random factor in [1 - JITTER, 1 + JITTER). */
export const RETRY_JITTER = 0.2

/**
 * The wait after attempt `attempts` (1 for the first) failed, in ms: the schedule's step with
 * jitter, so receivers that come back are not hit by every sender at once. `random` returns a
 * number in [0, 1).
 */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const step = RETRY_DELAYS_SECONDS[Math.max(0, attempts - 1)] ?? RETRY_CAP_SECONDS
  return Math.round(step * 1000 * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()))
}

/**
 * A `Retry-After` header as a wait in ms (delta-seconds or an HTTP date, RFC 9110 §10.2.3),
 * at most the cap; `null` when absent or unreadable.
 */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (header === null) return null
  const value = header.trim()
  let ms = Number.NaN
  if (/^\d+$/.test(value)) ms = Number(value) * 1000
  // An HTTP date starts with the day's name ("Thu, 26 Nov 2026 …"); Date.parse alone would
  // read "-5" as a year.
  else if (/^[A-Za-z]{3}, /.test(value)) ms = Date.parse(value) - now.getTime()
  if (!Number.isFinite(ms)) return null
  return Math.min(Math.max(0, ms), RETRY_CAP_SECONDS * 1000)
}

/**
 * When to try again after a failed attempt, or `null` to give up: the backoff (or the
 * receiver's `Retry-After`, when longer) unless that is past the retry window.
 */
export function nextAttemptAt(
  attempt: {
    readonly attempts: number
    readonly createdAt: Date
    readonly retryAfterMs: number | null
  },
  now: Date,
  random?: () => number,
): Date | null {
  const wait = Math.max(backoffMs(attempt.attempts, random), attempt.retryAfterMs ?? 0)
  const next = new Date(now.getTime() + wait)
  return next.getTime() > attempt.createdAt.getTime() + RETRY_WINDOW_MS ? null : next
}
