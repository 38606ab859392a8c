import { unrefTimeout } from './timers'

/** The waits of {@link createWaits}. */
export interface Waits {
  /**
   * Runs `job` with a signal that aborts after `ms` or on {@link Waits.cancel_}; rejects then,
   * even when the job ignores its signal (a hanging token provider, say).
   */
  within_<T>(ms: number, job: (signal: AbortSignal) => Promise<T>): Promise<T>
  /** Resolves after `ms`, or at once on {@link Waits.cancel_}. */
  sleep_(ms: number): Promise<void>
  /** Cuts every current wait short (the transport is closing). */
  cancel_(): void
}

/** Waits a closing transport can cut short: request attempts and backoff sleeps. */
export function createWaits(): Waits {
  const aborts = new Set<() => void>()
  const within = <T>(ms: number, job: (signal: AbortSignal) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      const controller = new AbortController()
      const end = () => {
        aborts.delete(abort)
        clearTimeout(timer)
      }
      const abort = () => {
        end()
        controller.abort()
        reject('timeout')
      }
      const timer = unrefTimeout(abort, ms)
      aborts.add(abort)
      // A job that throws at once rejects the wait too; its timer then runs out harmlessly.
      job(controller.signal).then(resolve, reject).finally(end)
    })
  return {
    within_: within,
    // A sleep is a job that never ends, cut off by its timeout (or by cancel).
    sleep_: (ms) => within(ms, () => new Promise<never>(() => {})).catch(() => {}),
    cancel_() {
      for (const abort of aborts) abort()
    },
  }
}
