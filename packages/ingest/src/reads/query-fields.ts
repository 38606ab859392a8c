import { isRfc3339DateTime, MAX_PAGE_SIZE, parseDateTime } from '@tis/schema'
import { z } from 'zod'
import { decodeCursor } from './cursor'
import type { QueryResult } from './query-result'

// The query parameters the read API's lists share, and how a query is parsed into a port's query.

export type { QueryResult } from './query-result'

/** Page size when `limit` is absent. */
export const DEFAULT_PAGE_SIZE = 50
/** The largest page; a larger `limit` is capped to it. */
export { MAX_PAGE_SIZE }

/** A UUID in its 8-4-4-4-12 hexadecimal form (any version, either case). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** The longest text filter, in characters. */
export const MAX_FILTER = 1_024

/** Text stored in PostgreSQL cannot hold NUL, so no filter can match one: say so. */
export const noNul = (s: string) => !s.includes('\u0000')
export const NUL_MESSAGE = 'must not contain a NUL character'

/** An optional text filter. */
export const filter = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_FILTER, `must be at most ${MAX_FILTER} characters`)
  .refine(noNul, NUL_MESSAGE)
  .optional()

/** An optional page size, capped at {@link MAX_PAGE_SIZE}. */
export const limit = z
  .string()
  .regex(/^\d{1,9}$/, 'must be a positive integer')
  .transform(Number)
  .refine((n) => n >= 1, 'must be a positive integer')
  .transform((n) => Math.min(n, MAX_PAGE_SIZE))
  .optional()

/**
 * `limit` as the OpenAPI document describes it: the integer the query string's digits name (the
 * parser above reads the string), 50 when absent.
 */
export const limitDoc = z
  .int()
  .min(1)
  .default(DEFAULT_PAGE_SIZE)
  .meta({ description: `Page size, 1 or more; capped at ${MAX_PAGE_SIZE}.` })

/** An optional keyset cursor of {@link encodeCursor}. */
export const cursor = z
  .string()
  .transform((token, ctx) => {
    const decoded = decodeCursor(token)
    if (!decoded) ctx.addIssue({ code: 'custom', message: 'is not a cursor of this list' })
    return decoded ?? undefined
  })
  .optional()
  .meta({ description: 'The `next_cursor` of the previous page (opaque).' })

/** An optional RFC 3339 date-time. */
export const time = z
  .string()
  .refine(isRfc3339DateTime, 'must be an RFC 3339 date-time')
  .transform(parseDateTime)
  .optional()
  .meta({ format: 'date-time' })

/** An optional UUID. */
export const uuid = z.string().regex(UUID, 'must be a UUID').optional().meta({ format: 'uuid' })

/** A query string as the host parsed it. */
export type RawQuery = Readonly<Record<string, string | undefined>>

/** Validates `raw` with `schema`, naming the parameter in every message. */
export function parse<S extends z.ZodType>(schema: S, raw: RawQuery): QueryResult<z.output<S>> {
  const result = schema.safeParse(raw)
  if (result.success) return { ok: true, value: result.data }
  return {
    ok: false,
    errors: result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`),
  }
}

/** Drops `undefined` fields (the port's types are exact optional properties). */
export function defined<T extends object>(value: { [K in keyof T]-?: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T
}
