import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { TEXT_SEARCH_INDEX } from '@tis/storage-postgres'
import { describe, expect, it } from 'vitest'
import { openStore } from './store'

// SERVICE_TEXT_SEARCH_INDEX reaches the store that migrates: the index is gone after an open
// with `false` (creating it again is the storage suite's, read-model-indexes.int.test.ts).
describe('openStore: the text search index', () => {
  it('drops the trigram index with textSearchIndex false', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tis-store-'))
    const dataDir = join(dir, 'data')
    const database = (textSearchIndex: boolean) => ({
      kind: 'pglite' as const,
      dataDir,
      sync: 'off' as const,
      sharedBuffers: '16MB',
      textSearchIndex,
    })
    const present = async () => {
      const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
      const db = await PGlite.create({ dataDir, extensions: { pg_trgm } })
      try {
        const { rows } = await db.query<{ present: boolean }>(
          'select to_regclass($1::text) is not null as present',
          [TEXT_SEARCH_INDEX],
        )
        return rows[0]!.present
      } finally {
        await db.close()
      }
    }
    try {
      await (await openStore(database(false))).store.close()
      expect(await present()).toBe(false)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
