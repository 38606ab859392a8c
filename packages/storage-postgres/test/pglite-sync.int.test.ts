// PGlite's file sync (SERVICE_EMBEDDED_SYNC): which settings make PostgreSQL's fsync calls reach
// fsync(2), and that openPgliteStore flushes every commit in `commit` mode and nothing in `off`.
// fsync and fsyncSync are wrapped (still called) so the tests can count the flushes tis makes.
import { randomUUID } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { openPgliteStore, type PgliteSync, pgliteCommitSyncOptions } from '../src/index'

const fsyncs = vi.hoisted(() => ({ count: 0 }))
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>()
  const fsyncSync = (fd: number) => {
    fsyncs.count += 1
    fs.fsyncSync(fd)
  }
  const fsync = (fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
    fsyncs.count += 1
    fs.fsync(fd, callback)
  }
  return { ...fs, fsyncSync, fsync, default: { ...fs, fsyncSync, fsync } }
})

let root: string
/** A migrated database, copied for each test: creating one takes seconds. */
let template: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tis-pglite-sync-'))
  template = join(root, 'template')
  await (await openPgliteStore(template, { sync: 'off' })).close()
}, 120_000)
afterAll(() => rm(root, { recursive: true, force: true }))

async function copyOfTemplate(): Promise<string> {
  const dir = join(root, randomUUID())
  await cp(template, dir, { recursive: true })
  return dir
}

/** Flushes each of `n` committed inserts makes, counted once each insert has resolved. */
async function flushesPerCommit(db: PGlite, n: number): Promise<number[]> {
  await db.exec('create table if not exists sync_probe (id serial primary key, v text)')
  const counts: number[] = []
  for (let i = 0; i < n; i++) {
    const before = fsyncs.count
    await db.query('insert into sync_probe (v) values ($1)', [`row ${i}`])
    counts.push(fsyncs.count - before)
  }
  return counts
}

describe('PGlite and fsync(2)', () => {
  // Each row opens PGlite's Node filesystem with fsync wired to fsync(2), so a zero means
  // PostgreSQL never asked for a flush.
  it.each([
    ['PGlite defaults (-F: fsync off)', [], 'off'],
    [
      'fsync=on alone: WAL flushes go to fdatasync(), which PGlite answers without doing',
      ['-c', 'fsync=on'],
      'fdatasync',
    ],
  ])(
    '%s: no commit reaches the disk',
    async (_name, settings, walSync) => {
      const dir = await copyOfTemplate()
      const { fs } = await pgliteCommitSyncOptions(dir)
      const db = await PGlite.create({
        fs,
        startParams: [...PGlite.defaultStartParams, ...settings],
      })
      try {
        const fsyncSetting = (await db.query<{ fsync: string }>('show fsync')).rows[0]?.fsync
        expect(fsyncSetting).toBe(walSync === 'off' ? 'off' : 'on')
        expect(await flushesPerCommit(db, 5)).toEqual([0, 0, 0, 0, 0])
        // The wiring itself works: with fsync on, a checkpoint flushes the data files.
        if (walSync !== 'off') {
          const before = fsyncs.count
          await db.exec('checkpoint')
          expect(fsyncs.count).toBeGreaterThan(before)
        }
      } finally {
        await db.close()
      }
    },
    60_000,
  )

  it('pgliteCommitSyncOptions: every commit is flushed before it resolves', async () => {
    const dir = await copyOfTemplate()
    const db = await PGlite.create(await pgliteCommitSyncOptions(dir))
    try {
      const settings = await db.query<{ name: string; setting: string }>(
        "select name, setting from pg_settings where name in ('fsync', 'wal_sync_method') order by name",
      )
      expect(settings.rows).toEqual([
        { name: 'fsync', setting: 'on' },
        { name: 'wal_sync_method', setting: 'fsync' },
      ])
      for (const flushes of await flushesPerCommit(db, 5)) expect(flushes).toBeGreaterThan(0)
    } finally {
      await db.close()
    }
  }, 60_000)
})

/** Files and directories under `dir`, itself included. */
function entriesUnder(dir: string): number {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).length + 1
}

describe('openPgliteStore: sync', () => {
  const createUser = (store: Awaited<ReturnType<typeof openPgliteStore>>) => {
    const id = randomUUID()
    return store.createUser({
      id,
      email: `${id}@example.com`,
      tokenDigest: id,
      createdAt: new Date(),
    })
  }

  it.each<[PgliteSync | undefined, 'flushed' | 'not flushed']>([
    [undefined, 'flushed'],
    ['commit', 'flushed'],
    ['off', 'not flushed'],
  ])(
    'sync %s: the directory at open and every write are %s',
    async (sync, expected) => {
      const dir = await copyOfTemplate()
      const entries = entriesUnder(dir)
      const before = fsyncs.count
      const store = await openPgliteStore(dir, sync === undefined ? {} : { sync })
      try {
        const atOpen = fsyncs.count - before
        const perWrite: number[] = []
        for (let i = 0; i < 3; i++) {
          const start = fsyncs.count
          await createUser(store)
          perWrite.push(fsyncs.count - start)
        }
        if (expected === 'flushed') {
          // Every file copied in (none of them flushed by the copy), then PostgreSQL's own flushes.
          expect(atOpen).toBeGreaterThanOrEqual(entries)
          for (const n of perWrite) expect(n).toBeGreaterThan(0)
        } else {
          expect({ atOpen, perWrite }).toEqual({ atOpen: 0, perWrite: [0, 0, 0] })
        }
      } finally {
        await store.close()
      }
    },
    60_000,
  )

  it('in memory, sync commit flushes nothing (there is no file)', async () => {
    const before = fsyncs.count
    const store = await openPgliteStore(undefined, { sync: 'commit' })
    try {
      await createUser(store)
      expect(fsyncs.count - before).toBe(0)
    } finally {
      await store.close()
    }
  }, 60_000)
})
