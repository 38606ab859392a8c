import type { ArtifactChunkStore } from '@tis/ingest'
import type { SqlExecutor } from '../executor'
import { bytesOf } from './rows'

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
      // One statement per chunk (a bytea parameter each; arrays of bytea differ between the
      // drivers), sent together. A chunk is immutable by its hash: storing it again keeps the first.
      await db.pipeline(
        chunks.map((c) => ({
          text: `insert into artifact_chunks (owner_id, sha1, content, created_at)
                 values ($1::text, $2::text, $3::bytea, $4::timestamptz)
                 on conflict (owner_id, sha1) do nothing`,
          params: [ownerId, c.sha1, c.content, at],
        })),
      )
    },

    async readChunks(ownerId, sha1s) {
      const out = new Map<string, Uint8Array>()
      if (sha1s.length === 0) return out
      const rows = await db.query<{ sha1: string; content: unknown }>(
        `select sha1, content from artifact_chunks
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
