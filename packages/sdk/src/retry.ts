/**
 * The wait before retry number `attempt` (from 1): full jitter under a ceiling that starts at
 * `baseMs` and doubles per retry, up to `maxMs`.
 */
export const backoff = (attempt: number, baseMs: number, maxMs: number): number =>
  Math.random() * Math.min(maxMs, baseMs * 2 ** (attempt - 1))
