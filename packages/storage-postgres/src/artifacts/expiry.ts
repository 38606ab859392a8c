import type { SqlExecutor } from '../executor'
import { deleteOrphanBlobs } from './blobs'
import { deleteBundles } from './bundles'

// Retention of source-map uploads: a bundle lives while frames are resolved with it
// (`last_used_at`, moved by the projection), and goes once unused for the project's period.

/** How long a chunk of an upload that never assembled is kept. */
export const ARTIFACT_CHUNK_TTL_MS = 86_400_000

const EXPIRED = /* sql */ `
select id::text as id from artifact_bundles
 where project_id = $1::uuid and last_used_at < $2::timestamptz
 order by last_used_at limit $3::int
 for update`

/**
 * Deletes a project's bundles unused since `cutoff`, at most `batchSize` per transaction, with
 * the contents no other file uses. `for update`: a bundle touched meanwhile is re-checked and
 * kept. Resolves how many went.
 */
export async function expireArtifactBundles(
  db: SqlExecutor,
  projectId: string,
  cutoff: Date,
  batchSize: number,
  signal?: AbortSignal,
): Promise<number> {
  let total = 0
  while (!signal?.aborted) {
    const deleted = await db.transaction(async (tx) => {
      const rows = await tx.query<{ id: string }>(EXPIRED, [projectId, cutoff, batchSize])
      return deleteBundles(
        tx,
        projectId,
        rows.map((r) => r.id),
      )
    })
    total += deleted
    if (deleted < batchSize) return total
  }
  return total
}

/** The bundles {@link expireArtifactBundles} would delete (a dry run). */
export async function countExpiredArtifactBundles(
  db: SqlExecutor,
  projectId: string,
  cutoff: Date,
): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `select count(*)::int as n from artifact_bundles
      where project_id = $1::uuid and last_used_at < $2::timestamptz`,
    [projectId, cutoff],
  )
  return row?.n ?? 0
}

/**
 * The chunks a pass at `now` prunes (or, dry, would): stored over a day before. A pass that
 * deletes also sweeps contents no file uses (left behind by a project deleted with its bundles,
 * which cascades past {@link deleteOrphanBlobs}).
 */
export async function expireArtifactChunks(db: SqlExecutor, now: Date, dryRun: boolean) {
  const before = new Date(now.getTime() - ARTIFACT_CHUNK_TTL_MS)
  if (!dryRun) await sweepOrphanBlobs(db)
  const [row] = await db.query<{ n: number }>(
    dryRun
      ? 'select count(*)::int as n from artifact_chunks where created_at < $1::timestamptz'
      : `with gone as (delete from artifact_chunks where created_at < $1::timestamptz returning 1)
         select count(*)::int as n from gone`,
    [before],
  )
  return row?.n ?? 0
}

/** Deletes every content no file uses, a batch at a time; resolves how many went. */
async function sweepOrphanBlobs(db: SqlExecutor, batch = 1000): Promise<number> {
  let total = 0
  for (;;) {
    const gone = await db.transaction(async (tx) => {
      const rows = await tx.query<{ sha1: string }>(
        `select b.sha1 from artifact_blobs b
          where not exists (select 1 from artifact_files f where f.sha1 = b.sha1)
          limit $1::int`,
        [batch],
      )
      // Locked and checked again there: an upload reusing one meanwhile keeps it.
      const deleted = await deleteOrphanBlobs(
        tx,
        rows.map((r) => r.sha1),
      )
      return { found: rows.length, deleted }
    })
    total += gone.deleted
    if (gone.found < batch) return total
  }
}
