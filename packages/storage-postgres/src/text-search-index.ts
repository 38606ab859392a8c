import type { SqlExecutor } from './executor'
import { MIGRATION_LOCK_KEY } from './migrate'

/** The trigram index behind `q` text search on `events.message` (migration 8). */
export const TEXT_SEARCH_INDEX = 'events_message_trgm_idx'

const PRESENT = /* sql */ `
select to_regclass($1::text) is not null as present,
       exists (select 1 from pg_extension where extname = 'pg_trgm') as trgm`

/**
 * Creates or drops the trigram index on `events.message` so that it exists exactly when
 * `wanted` (and pg_trgm is installed: without the extension there is nothing to create). Runs
 * under the migrators' advisory lock, so servers starting at once take turns. Resolves what
 * it did.
 *
 * The index makes `q` substring search independent of the table's size; without it search
 * scans a project's events newest first (docs/self-hosting.md; docs/performance.md, "Third
 * pass"). It is the most expensive index the projection maintains: every distinct message
 * adds a GIN entry per trigram. Creating it on a large table takes time (not measured here)
 * and blocks writes to `events` meanwhile; dropping it is immediate.
 */
export async function applyTextSearchIndex(
  db: SqlExecutor,
  wanted: boolean,
): Promise<'created' | 'dropped' | 'unchanged'> {
  return db.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`)
    const [state] = await tx.query<{ present: boolean; trgm: boolean }>(PRESENT, [
      TEXT_SEARCH_INDEX,
    ])
    if (wanted && !state!.present && state!.trgm) {
      await tx.exec(`create index ${TEXT_SEARCH_INDEX} on events using gin (message gin_trgm_ops)`)
      return 'created'
    }
    if (!wanted && state!.present) {
      await tx.exec(`drop index ${TEXT_SEARCH_INDEX}`)
      return 'dropped'
    }
    return 'unchanged'
  })
}
