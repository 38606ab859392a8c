import * as z from 'zod'

// Building blocks of the answers' schemas (read API, management API, source settings, account).
// Every answer object is a `z.strictObject`: its JSON Schema says `additionalProperties: false`,
// so a serialiser that adds a field the schema does not declare fails the response check.

/** A uuid as the API writes it. */
export const uuidField = z.uuid()

/** An RFC 3339 instant as the API writes it (`Date#toISOString`). */
export const dateTimeField = z.iso.datetime({ offset: true })

/**
 * An instant outside the years 0000–9999, which RFC 3339 cannot write: ISO 8601's expanded
 * form, as `Date#toISOString` writes it (a BC date an old database holds, a deadline computed
 * from a huge interval).
 */
export const expandedYearField = z
  .string()
  .regex(/^[+-]\d{6}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  .meta({ description: 'ISO 8601 expanded year (`+010000-01-01T00:00:00.000Z`).' })

/** A stored or computed instant: `null` only for one an old database holds without any form. */
export const storedTimeField = z.union([dateTimeField, expandedYearField]).nullable().meta({
  description:
    'RFC 3339, or ISO 8601 with an expanded year outside 0000–9999; null only for an instant without any form (±infinity, an invalid date), which only a database written before ingestion checked instants (or by hand) holds.',
})

/** A stored link: an http(s) URL, else null (also for a stored link of another scheme). */
export const linkField = z
  .string()
  .regex(/^https?:\/\//i)
  .nullable()
  .meta({
    format: 'uri',
    description:
      'An http or https URL; null when absent or when the stored value has another scheme.',
  })

/**
 * A stored 64-bit integer (a count, a sequence number): past 2^53 JSON carries it as the nearest
 * double, so it is an integer without the safe-integer bounds `z.int()` would declare.
 */
export const storedIntegerField = z
  .number()
  .check(z.refine(Number.isInteger, 'expected an integer'))
  .meta({ type: 'integer' })

/** A string that may be null. */
export const nullableString = z.string().nullable()

/** A number that may be null. */
export const nullableNumber = z.number().nullable()

/**
 * Registers `schema` as the component `name` of the OpenAPI document (`#/components/schemas/name`):
 * other schemas and the generated paths refer to it by `$ref`.
 */
export function component<T extends z.ZodType>(name: string, schema: T, description?: string): T {
  return schema.meta({ id: `tis.${name}`, ...(description ? { description } : {}) })
}

/** One page of a list answer, newest first: `{ [key]: item[], next_cursor }`. */
export function pageOf<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.strictObject({
    [key]: z.array(item),
    next_cursor: nullableString.meta({
      description: 'Pass as `cursor` for the next page; null on the last page.',
    }),
  } as { [P in K]: z.ZodArray<T> } & { next_cursor: z.ZodNullable<z.ZodString> })
}
