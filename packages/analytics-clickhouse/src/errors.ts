/** What went wrong in the analytics store. */
export type AnalyticsErrorCode =
  /** The server could not be reached or answered with an error to a query. */
  | 'query_failed'
  /** A DDL statement of the migration failed. */
  | 'migration_failed'
  /** An insert into a raw table failed (nothing or only part of it may have landed). */
  | 'insert_failed'

/** The one error class of `@tis/analytics-clickhouse`; the driver's error is its `cause`. */
export class AnalyticsError extends Error {
  override readonly name = 'AnalyticsError'
  readonly code: AnalyticsErrorCode

  constructor(code: AnalyticsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
  }

  /** Name-based check that survives duplicate installs of this package. */
  static is(value: unknown): value is AnalyticsError {
    return value instanceof Error && value.name === 'AnalyticsError' && 'code' in value
  }
}

/** The message of anything thrown, for reports and wrapped errors. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
