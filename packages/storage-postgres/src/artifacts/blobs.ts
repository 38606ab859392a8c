import type { SqlExecutor } from '../executor'
import { base64Of } from './rows'

/**
 * Stores the contents a bundle's files need that are not stored yet, in the caller's
 * transaction. The ones already stored are locked (`for key share`, in hash order) before the
 * files naming them are written, so a concurrent {@link deleteOrphanBlobs} waits for this
 * transaction and then finds them used; only the missing ones' bytes are sent.
 */
export async function storeBlobs(
  tx: SqlExecutor,
  contents: ReadonlyMap<string, Uint8Array>,
): Promise<void> {
  if (contents.size === 0) return
  const present = await tx.query<{ sha1: string }>(
    `select sha1 from artifact_blobs where sha1 = any($1::text[]) order by sha1 for key share`,
    [[...contents.keys()]],
  )
  const have = new Set(present.map((r) => r.sha1))
  const missing = [...contents].filter(([sha1]) => !have.has(sha1))
  if (missing.length === 0) return
  // `on conflict`: another upload of the same content may commit first.
  await tx.query(
    `insert into artifact_blobs (sha1, content, size)
     select c.sha1, c.content, length(c.content)
       from (select sha1, decode(b64, 'base64') as content
               from unnest($1::text[], $2::text[]) as u (sha1, b64)) c
     on conflict (sha1) do nothing`,
    [missing.map(([sha1]) => sha1), missing.map(([, content]) => base64Of(content))],
  )
}

/**
 * Deletes those of `sha1s` that no file uses any more, in the caller's transaction (after it
 * deleted the files). The candidates are locked first, in hash order: an upload that is reusing
 * one holds it `for key share` until it commits, and the check that follows then sees its file.
 * Resolves how many contents went.
 */
export async function deleteOrphanBlobs(tx: SqlExecutor, sha1s: readonly string[]) {
  if (sha1s.length === 0) return 0
  const candidates = [...new Set(sha1s)]
  await tx.query(
    'select 1 from artifact_blobs where sha1 = any($1::text[]) order by sha1 for update',
    [candidates],
  )
  const [row] = await tx.query<{ n: number }>(
    `with gone as (
       delete from artifact_blobs b
        where b.sha1 = any($1::text[])
          and not exists (select 1 from artifact_files f where f.sha1 = b.sha1)
       returning 1)
     select count(*)::int as n from gone`,
    [candidates],
  )
  return row?.n ?? 0
}
