/** One versioned schema change, applied once and recorded in `schema_migrations`. */
export interface Migration {
  /** Strictly increasing; the order migrations run in. */
  readonly version: number
  /** Short description, stored next to the version. */
  readonly name: string
  /** Parameterless SQL script (several statements), run inside the migration transaction. */
  readonly sql: string
}
