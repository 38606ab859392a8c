// The SDK's fixed caps, in a module of their own: esbuild inlines constants imported from a
// module, not those of a module that imports values itself.

/** How many causes deep an error is described. */
export const MAX_CAUSES = 5

/** How many members of an `AggregateError` are described. */
export const MAX_MEMBERS = 10

/** Body bytes of keepalive requests in flight: browsers cap them at 64 KiB together. */
export const KEEPALIVE_BUDGET = 60_000
