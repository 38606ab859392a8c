import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { describeStoreContract } from '@tis/test-utils/store-contract'
import { describeAlertDeliveriesContract } from '@tis/test-utils/store-contract-alert-deliveries'
import { describeArtifactStoreContract } from '@tis/test-utils/store-contract-artifacts'
import { describe, expect, it } from 'vitest'
import { createPgliteStore, openPgliteStore } from '../src/index'
import { createPgliteExecutor } from '../src/pglite-executor'
import { initialiseApart } from '../src/pglite-initdb'
import { describeAlertUpgrade } from './alert-upgrade-suite'
import { describeAnalyticsCursor } from './analytics-cursor-suite'
import { describeAnalyticsSessions } from './analytics-sessions-suite'
import { describeIssueUsersUpgrade } from './issue-users-upgrade-suite'
import { describeOutboxUpgrade } from './outbox-upgrade-suite'
import { createSqlProbe } from './probe'

describeStoreContract('PGlite', async () => {
  const db = await PGlite.create()
  const store = createPgliteStore(db)
  await store.migrate()
  return { store, probe: createSqlProbe(createPgliteExecutor(db)), close: () => db.close() }
})

describeAlertDeliveriesContract('PGlite', async () => {
  const db = await PGlite.create()
  const first = createPgliteStore(db)
  await first.migrate()
  const sql = createPgliteExecutor(db)
  return {
    first,
    second: createPgliteStore(db),
    query: <T>(text: string, params: readonly string[]) => sql.query(text, params) as Promise<T[]>,
    close: () => db.close(),
  }
})

describeArtifactStoreContract('PGlite', async ({ enrich }) => {
  const db = await PGlite.create()
  const store = createPgliteStore(db, { enrich })
  await store.migrate()
  const sql = createPgliteExecutor(db)
  return {
    store,
    query: <T>(text: string, params: readonly string[] = []) =>
      sql.query(text, params) as Promise<T[]>,
    close: () => db.close(),
  }
})

describeAnalyticsCursor('PGlite', async () => {
  const db = await PGlite.create()
  const analytics = createPgliteStore(db, { analytics: true })
  await analytics.migrate()
  return { analytics, plain: createPgliteStore(db), close: () => db.close() }
})

describeAnalyticsSessions('PGlite', async () => {
  const db = await PGlite.create()
  const store = createPgliteStore(db, { analytics: true })
  await store.migrate()
  const sql = createPgliteExecutor(db)
  return {
    store,
    query: <T>(text: string, params: readonly string[] = []) =>
      sql.query(text, params) as Promise<T[]>,
    close: () => db.close(),
  }
})

const upgradeHarness = async () => {
  const db = await PGlite.create()
  return { db: createPgliteExecutor(db), store: createPgliteStore(db), close: () => db.close() }
}
describeAlertUpgrade('PGlite', upgradeHarness)
describeOutboxUpgrade('PGlite', upgradeHarness)
describeIssueUsersUpgrade('PGlite', upgradeHarness)

describe('openPgliteStore', () => {
  it("creates a new directory's database in a child process and names the directory when it cannot", async () => {
    const root = await mkdtemp(join(tmpdir(), 'tis-pglite-initdb-'))
    try {
      const dir = join(root, 'data')
      await mkdir(dir)
      await initialiseApart(dir)
      expect((await readFile(join(dir, 'PG_VERSION'), 'utf8')).trim()).toMatch(/^\d+$/)
      const store = await openPgliteStore(dir)
      await expect(store.ping()).resolves.toBeUndefined()
      await store.close()
      // A file where the directory should be: the child fails, and says where.
      const file = join(root, 'not-a-directory')
      await writeFile(file, 'x')
      await expect(initialiseApart(file)).rejects.toThrow(
        `could not create the embedded database in ${file}`,
      )
    } finally {
      await rm(root, { recursive: true, force: true })
    }
    // Two child processes that each start PGlite, then an open: on two loaded cores this took
    // over 30 s in a clean-clone run, and 40 s beside another suite.
  }, 120_000)

  it('hands PostgreSQL its shared_buffers: a size it refuses fails the open, a malformed one is named', async () => {
    // Below PostgreSQL's minimum (128kB): only a setting that reaches the server can fail so.
    await expect(openPgliteStore(undefined, { sharedBuffers: '1kB' })).rejects.toThrow()
    await expect(openPgliteStore(undefined, { sharedBuffers: '16 MB' })).rejects.toThrow(
      'sharedBuffers must be a size such as 16MB (kB, MB or GB), not 16 MB',
    )
    const store = await openPgliteStore(undefined, { sharedBuffers: '8MB' })
    await expect(store.ping()).resolves.toBeUndefined()
    await store.close()
  })

  it('persists to its data directory (created with parents); reopening migrates nothing twice', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tis-pglite-'))
    const dir = join(root, 'nested', 'data')
    try {
      const id = randomUUID()
      const first = await openPgliteStore(dir)
      await first.createUser({
        id,
        email: `${id}@example.com`,
        tokenDigest: id,
        createdAt: new Date(),
      })
      await first.close()

      const second = await openPgliteStore(dir)
      await second.migrate()
      expect((await second.findUserByTokenDigest(id))?.id).toBe(id)
      await second.close()
      // openPgliteStore loads pg_trgm, so migration 0008 made the text-search index.
      const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
      const raw = await PGlite.create(dir, { extensions: { pg_trgm } })
      const { rows } = await raw.query(
        "select indexname from pg_indexes where indexname = 'events_message_trgm_idx'",
      )
      expect(rows).toHaveLength(1)
      await raw.close()
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  }, 60_000)
})
