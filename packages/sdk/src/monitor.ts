import type { CheckInStatus } from './options'

/**
 * Runs `job` and reports how it ended: `ok`, or `error` with the job's error rethrown. A job
 * that returns a promise is reported when the promise settles.
 */
export function monitor<T>(job: () => T, report: (status: CheckInStatus) => void): T {
  let result: T
  try {
    result = job()
  } catch (error) {
    report('error')
    throw error
  }
  if (typeof (result as { then?: unknown } | null)?.then !== 'function') {
    report('ok')
    return result
  }
  return (result as PromiseLike<unknown>).then(
    (value) => {
      report('ok')
      return value
    },
    (error: unknown) => {
      report('error')
      throw error
    },
  ) as T
}
