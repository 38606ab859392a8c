import type { ParseResult } from './result'

// Helpers for the table-driven tests: unwrap a parse result or fail with what came instead.

/** The value of an accepted parse; throws with the outcome otherwise. */
export function acceptedValue<T>(result: ParseResult<T>): T {
  if (!result.ok) throw new Error(`expected acceptance, got ${JSON.stringify(result)}`)
  return result.value
}

/** The messages of a 422; throws with the outcome otherwise. */
export function errorsOf(result: ParseResult<unknown>): readonly string[] {
  if (result.ok || result.status !== 422) {
    throw new Error(`expected 422, got ${JSON.stringify(result)}`)
  }
  return result.errors
}
