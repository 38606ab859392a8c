/** A request body that was usable and valid, normalised to canonical snake_case names. */
export interface ParseSuccess<T> {
  readonly ok: true
  readonly value: T
}

/**
 * The envelope was missing or unusable (section 7 of the interface: 400). `error` begins with
 * `param is missing or the value is empty: <envelope key>`.
 */
export interface ParseBadRequest {
  readonly ok: false
  readonly status: 400
  readonly error: string
}

/** The envelope was present but failed validation (section 7: 422); one message per problem. */
export interface ParseUnprocessable {
  readonly ok: false
  readonly status: 422
  readonly errors: readonly string[]
}

/** The outcome of parsing one request body: never throws, never returns a zod error. */
export type ParseResult<T> = ParseSuccess<T> | ParseBadRequest | ParseUnprocessable

/** @internal */
export const success = <T>(value: T): ParseSuccess<T> => ({ ok: true, value })

/** @internal */
export const badRequest = (error: string): ParseBadRequest => ({ ok: false, status: 400, error })

/** @internal */
export const unprocessable = (errors: readonly string[]): ParseUnprocessable => ({
  ok: false,
  status: 422,
  errors,
})

/**
 * The output type of an object schema's known fields, without the index signature a loose
 * object adds (`Omit` over a type with an index signature would drop the known fields).
 */
export type KnownFields<Shape extends import('zod').ZodRawShape> = import('zod').output<
  import('zod').ZodObject<Shape>
>
