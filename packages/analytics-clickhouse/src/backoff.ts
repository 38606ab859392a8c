/** First retry delay after a failed export. */
export const RETRY_BASE_MS = 1_000
/** Longest retry delay. */
export const RETRY_MAX_MS = 60_000

/**
 * Delay before retry number `failures` (1 for the first failure): 1 s doubling up to 60 s, with
 * "equal jitter" (between half and all of it) so drainers of several processes spread out.
 */
export function retryDelayMs(failures: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(failures, 1) - 1, 16)
  const ceiling = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** exponent)
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}
