import { unrefTimeout } from './timers'

/** The waits of {@link createWaits}. */
export interface Waits {
  /**
   * Runs `job` with a signal that aborts after `ms` or on {@link Waits.cancel}; rejects then,
   * even when the job ignores its signal (a hanging token provider, say).
   */
  within<T>(ms: number, job: (signal: AbortSignal) => Promise<T>): Promise<T>
  /** Resolves after `ms`, or at once on {@link Waits.cancel}. */
  sleep(ms: number): Promise<void>
  /** Cuts every current wait short (the transport is closing). */
  cancel(): void
}

const never = () => new Promise<never>(() => {})

/** Waits a closing transport can cut short: request attempts and backoff sleeps. */
export function createWaits(): Waits {
  const aborts = new Set<() => void>()
  async function within<T>(ms: number, job: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController()
    const abort = () => controller.abort()
    const timer = unrefTimeout(abort, ms)
    aborts.add(abort)
    try {
      return await Promise.race([
        job(controller.signal),
        new Promise<never>((_, reject) => {
          controller.signal.addEventListener('abort', () => reject(new Error('timeout')))
        }),
      ])
    } finally {
      aborts.delete(abort)
      clearTimeout(timer)
    }
  }
  return {
    within,
    // A sleep is a job that never ends, cut off by its timeout (or by cancel).
    sleep: (ms) => within(ms, never).catch(() => {}),
    cancel() {
      for (const abort of aborts) abort()
    },
  }
}
