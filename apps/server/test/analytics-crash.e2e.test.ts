// A drainer that dies between its ClickHouse insert and `complete` (as a SIGKILLed process
// would: no complete, no release) leaves its range leased; the next drainer takes the range over
// when the lease runs out and every row still arrives exactly once, even with a smaller batch
// than the dead one's. On PGlite and PostgreSQL, against a real ClickHouse.

import { randomBytes } from 'node:crypto'
import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client'
import { PGlite } from '@electric-sql/pglite'
import { createAnalyticsDrainer, createClickHouseAnalyticsStore } from '@tis/analytics-clickhouse'
import type { AnalyticsOutbox } from '@tis/ingest'
import {
  createPgliteStore,
  openPostgresStore,
  type PostgresIngestStore,
} from '@tis/storage-postgres'
import { describeWithClickHouse } from '@tis/test-utils/clickhouse-suite'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import { projectAll } from '@tis/test-utils/store-contract'
import { eventOp, seedProject } from '@tis/test-utils/store-fixtures'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const EVENTS = 50

describeWithClickHouse('analytics export after a drainer dies mid-batch', (clickhouse) => {
  let ch: ClickHouseClient
  beforeAll(() => {
    ch = createClient({ url: clickhouse().url, log: { level: ClickHouseLogLevel.OFF } })
  })
  afterAll(() => ch?.close())

  async function exportsOnce(store: PostgresIngestStore) {
    const { projectId } = await seedProject(store)
    await store.append(Array.from({ length: EVENTS }, () => eventOp(projectId)))
    await projectAll(store)
    const database = `crash_${randomBytes(5).toString('hex')}`
    const sink = createClickHouseAnalyticsStore(ch, { database })
    await sink.migrate()

    // Dies after the insert: `complete` never happens and nothing is released.
    const dead: AnalyticsOutbox = {
      ...store.outbox,
      complete: () => Promise.reject(new Error('SIGKILL')),
      release: async () => {},
    }
    // The lease is long enough that a loaded machine cannot run it out between the two calls.
    const first = createAnalyticsDrainer({ outbox: dead, sink, batchSize: 30, leaseMs: 1_500 })
    expect(await first.drainOnce()).toBe(0)
    // The lease holds: a second drainer gets nothing until it runs out.
    const second = createAnalyticsDrainer({ outbox: store.outbox, sink, batchSize: 20 })
    expect(await second.drainOnce()).toBe(0)
    const counts = async () => {
      const result = await ch.query({
        query: `SELECT count() AS n, uniqExact(id) AS u FROM ${database}.events_raw`,
        format: 'JSONEachRow',
      })
      const [row] = await result.json<{ n: string; u: string }>()
      return { n: Number(row?.n), u: Number(row?.u) }
    }
    expect(await counts()).toEqual({ n: 30, u: 30 })
    // Once it has run out, the second takes the range over.
    const deadline = Date.now() + 10_000
    while ((await second.drainOnce()) === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100))
    }
    while ((await second.drainOnce()) > 0);
    expect(await counts()).toEqual({ n: EVENTS, u: EVENTS })
    expect(second.stats()).toMatchObject({ exported: EVENTS, skipped: 30 })
    expect((await store.outbox.stats()).depth).toBe(0)
  }

  describe('PGlite', () => {
    it('exports every row once', async () => {
      const db = await PGlite.create()
      try {
        const store = createPgliteStore(db, { analytics: true })
        await store.migrate()
        await exportsOnce(store)
      } finally {
        await db.close()
      }
    })
  })

  describeWithTestDatabase('PostgreSQL', (url) => {
    it('exports every row once', async () => {
      const schema = `tis_crash_${randomBytes(6).toString('hex')}`
      const admin = postgres(url, { max: 1, onnotice: () => {} })
      await admin.unsafe(`create schema ${schema}`)
      const store = await openPostgresStore(url, {
        client: { max: 2, onnotice: () => {}, connection: { search_path: schema } },
        analytics: true,
      })
      try {
        await exportsOnce(store)
      } finally {
        await store.close()
        await admin.unsafe(`drop schema ${schema} cascade`)
        await admin.end()
      }
    })
  })
})
