import { StoreError } from '@tis/ingest'

/** A value bound to a `$n` placeholder. Dates are sent as ISO strings by both drivers. */
export type SqlParam = string | number | boolean | Date | null | readonly string[]

/** One statement of a {@link SqlExecutor.pipeline}. */
export interface Statement {
  readonly text: string
  readonly params: readonly SqlParam[]
}

/** A result row with normalised values: int8 → `number`, timestamptz → `Date`, jsonb → parsed. */
export type Row = Record<string, unknown>

/**
 * The one seam between the SQL of this package and a driver. Every statement is written once
 * against it; `postgres-executor.ts` and `pglite-executor.ts` adapt postgres.js and PGlite.
 */
export interface SqlExecutor {
  /** Runs one statement with `$n` parameters and resolves its rows. */
  query<T extends object = Row>(text: string, params?: readonly SqlParam[]): Promise<T[]>
  /**
   * Runs statements in order and resolves each one's rows. Over a network the driver sends them
   * all at once (pipelining): a batch costs one round trip, not one per statement. A statement
   * may rely on the effects of the ones before it, never on their results.
   */
  pipeline(statements: readonly Statement[]): Promise<Row[][]>
  /** Runs a parameterless script of several statements (migrations). */
  exec(script: string): Promise<void>
  /** Runs `fn` in one transaction: commits when it resolves, rolls back when it rejects. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>
}

// PostgreSQL type OIDs whose driver representation differs between postgres.js and PGlite.
const INT8 = 20
const INT8_ARRAY = 1016
const TIMESTAMP = 1114
const TIMESTAMPTZ = 1184

/**
 * Converts int8 columns (strings in postgres.js, bigints in PGlite) to numbers, and timestamp
 * values JavaScript cannot represent (BC dates, `±infinity`: PGlite returns a number for those,
 * postgres.js an invalid Date) to an invalid `Date`, so both drivers hand the engine the same.
 */
export function normalizeRows(rows: Row[], columns: ReadonlyArray<{ name: string; type: number }>) {
  const int8 = columns.filter((c) => c.type === INT8 || c.type === INT8_ARRAY).map((c) => c.name)
  const times = columns
    .filter((c) => c.type === TIMESTAMPTZ || c.type === TIMESTAMP)
    .map((c) => c.name)
  if (int8.length === 0 && times.length === 0) return rows
  for (const row of rows) {
    for (const name of int8) {
      const value = row[name]
      if (value === null || value === undefined) continue
      row[name] = Array.isArray(value) ? value.map(Number) : Number(value)
    }
    for (const name of times) {
      const value = row[name]
      if (value === null || value === undefined) continue
      if (!(value instanceof Date) || Number.isNaN(value.getTime()))
        row[name] = new Date(Number.NaN)
    }
  }
  return rows
}

/** Converts `Date` parameters to ISO strings, which every timestamptz placeholder accepts. */
export function normalizeParams(params: readonly SqlParam[]): unknown[] {
  return params.map((p) => (p instanceof Date ? p.toISOString() : p))
}

/** The SQLSTATE of a driver error, if it has one. */
export function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined
  const code = (error as { code: unknown }).code
  return typeof code === 'string' ? code : undefined
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND'])

/**
 * Wraps connection failures (refused, reset, server shutting down, too many clients) in
 * `StoreError('unavailable')` so the engine can tell "retry later" from a bad batch; every other
 * error is returned unchanged.
 */
export function mapDriverError(error: unknown): unknown {
  if (StoreError.is(error)) return error
  const code = sqlState(error)
  const unavailable =
    code !== undefined &&
    (CONNECTION_CODES.has(code) ||
      code.startsWith('08') || // connection exception
      code === '57P01' || // admin_shutdown
      code === '57P03' || // cannot_connect_now
      code === '53300' || // too_many_connections
      code === 'CONNECTION_CLOSED' ||
      code === 'CONNECTION_ENDED' ||
      code === 'CONNECTION_DESTROYED' ||
      code === 'CONNECT_TIMEOUT')
  if (!unavailable) return error
  const message = error instanceof Error ? error.message : String(error)
  return new StoreError('unavailable', `database unavailable: ${message}`, { cause: error })
}

/** A nullable text column of a row. */
export const textOrNull = (row: Row, column: string): string | null =>
  (row[column] as string | null | undefined) ?? null

/** A nullable timestamptz column of a row. */
export const dateOrNull = (row: Row, column: string): Date | null =>
  (row[column] as Date | null | undefined) ?? null

/** A nullable float8/numeric column of a row as a number (drivers may return numeric as text). */
export const numberOrNull = (row: Row, column: string): number | null => {
  const v = row[column]
  return v === null || v === undefined ? null : Number(v)
}
