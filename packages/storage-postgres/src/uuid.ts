const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * True for a UUID in its canonical text form. Lookups by id check it first: an id that cannot be
 * a UUID is simply unknown, rather than a PostgreSQL `invalid input syntax` error.
 */
export const isUuid = (value: string): boolean => UUID.test(value)
