// Its own file so that ./cursor (whose keyset pages take a parsed query) and ./query-fields
// (whose cursor parameter decodes with ./cursor) do not import each other.

/** A parsed query, or the 422 messages, each naming its parameter. */
export type QueryResult<T> = { ok: true; value: T } | { ok: false; errors: string[] }
