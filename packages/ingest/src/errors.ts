/** Failure codes a storage adapter reports through {@link StoreError}. */
export type StoreErrorCode = 'conflict' | 'not_found' | 'unavailable'

/**
 * The one error class adapters throw across the port. Check with {@link StoreError.is}, which is
 * name-based so it survives duplicate installs of this package.
 */
export class StoreError extends Error {
  override readonly name = 'StoreError'
  readonly code: StoreErrorCode

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
  }

  /** True for a `StoreError` from any copy of this package. */
  static is(error: unknown): error is StoreError {
    return error instanceof Error && error.name === 'StoreError' && 'code' in error
  }
}
