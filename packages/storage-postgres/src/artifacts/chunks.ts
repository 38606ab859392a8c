import type { ArtifactChunkStore } from '@tis/ingest'
import type { SqlExecutor } from '../executor'
import { base64Of, bytesOf } from './rows'

/** The chunks of uploads in progress (`artifact_chunks`), per owner. */
export function createArtifactChunkQueries(db: SqlExecutor): ArtifactChunkStore {
  return {
    async missingChunks(ownerId, sha1s) {
      if (sha1s.length === 0) return []
      const distinct = [...new Set(sha1s)]
      const rows = await db.query<{ sha1: string }>(
        'select sha1 from artifact_chunks where owner_id = $1::text and sha1 = any($2::text[])',
        [ownerId, distinct],
      )
      const have = new Set(rows.map((r) => r.sha1))
      return distinct.filter((sha1) => !have.has(sha1))
    },

    async putChunks(ownerId, chunks, at) {
      if (chunks.length === 0) return
      // A chunk is immutable by its hash: storing it again keeps the first.
      await db.query(
        `insert into artifact_chunks (owner_id, sha1, content, created_at)
         select $1::text, c.sha1, decode(c.content, 'base64'), $4::timestamptz
           from unnest($2::text[], $3::text[]) as c (sha1, content)
         on conflict (owner_id, sha1) do nothing`,
        [ownerId, chunks.map((c) => c.sha1), chunks.map((c) => base64Of(c.content)), at],
      )
    },

    async readChunks(ownerId, sha1s) {
      const out = new Map<string, Uint8Array>()
      if (sha1s.length === 0) return out
      const rows = await db.query<{ sha1: string; content: string }>(
        `select sha1, encode(content, 'base64') as content from artifact_chunks
          where owner_id = $1::text and sha1 = any($2::text[])`,
        [ownerId, [...new Set(sha1s)]],
      )
      for (const r of rows) out.set(r.sha1, bytesOf(r.content))
      return out
    },

    async pruneChunks(before) {
      const [row] = await db.query<{ n: number }>(
        `with gone as (delete from artifact_chunks where created_at < $1::timestamptz returning 1)
         select count(*)::int as n from gone`,
        [before],
      )
      return row?.n ?? 0
    },
  }
}
