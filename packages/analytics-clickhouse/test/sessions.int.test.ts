import type { ClickHouseClient } from '@clickhouse/client'
import type { OutboxRecord, OutboxSessionMinuteRow } from '@tis/ingest'
import { describeWithClickHouse } from '@tis/test-utils/clickhouse-suite'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createClickHouseAnalyticsStore } from '../src/index'
import { rows, testClient, uniqueDatabase } from './support/clickhouse-client'
import { sessionMinuteFixture } from './support/fixtures'

// Session minutes on the real ClickHouse 18.16: a ReplacingMergeTree whose highest version per
// (project, release, environment, minute) is what FINAL reads, whatever order the inserts came in.

const minute = (overrides: Partial<OutboxSessionMinuteRow>, attempts = 0): OutboxRecord => ({
  seq: '1',
  attempts,
  enqueuedAt: new Date(),
  kind: 'session_minute',
  row: sessionMinuteFixture(overrides),
})

describeWithClickHouse('session minutes in ClickHouse (real server)', (server) => {
  let client: ClickHouseClient
  beforeAll(() => {
    client = testClient(server().url)
  })
  afterAll(async () => {
    await client?.close()
  })

  async function migrated(sessionsTable?: string) {
    const db = uniqueDatabase('ses')
    const store = createClickHouseAnalyticsStore(client, {
      database: db,
      ...(sessionsTable ? { sessionsTable } : {}),
    })
    await store.migrate()
    return { store, db }
  }

  const final = (db: string, table = 'session_minutes') =>
    rows<Record<string, string | number>>(
      client,
      `SELECT release, environment, minute, healthy, errored, abnormal, crashed, version
         FROM ${db}.${table} FINAL ORDER BY release, environment, minute`,
    )

  it('keeps the highest version of a key: a later export replaces, an older one arriving late does not', async () => {
    const { store, db } = await migrated()
    expect(await store.insert([minute({ healthy: 2, crashed: 0, version: '10' })])).toEqual({
      inserted: 1,
      skipped: 0,
    })
    await store.insert([minute({ healthy: 1, crashed: 1, version: '12' })])
    // A drainer that lost its lease sends what it read before: lower version, ignored.
    await store.insert([minute({ healthy: 2, crashed: 0, version: '11' })])
    // A retry re-sends rows that are stored already (attempts > 0): sent, and harmless.
    expect(await store.insert([minute({ healthy: 1, crashed: 1, version: '12' }, 1)])).toEqual({
      inserted: 1,
      skipped: 0,
    })
    await store.insert([minute({ release: 'shop@2.0.0', healthy: 7, version: '12' })])
    const got = await final(db)
    expect(got.map((r) => ({ ...r, version: String(r['version']) }))).toEqual([
      {
        release: 'shop@1.0.0',
        environment: 'production',
        minute: '2026-11-22 10:15:00',
        healthy: 1,
        errored: 1,
        abnormal: 0,
        crashed: 1,
        version: '12',
      },
      {
        release: 'shop@2.0.0',
        environment: 'production',
        minute: '2026-11-22 10:15:00',
        healthy: 7,
        errored: 1,
        abnormal: 0,
        crashed: 1,
        version: '12',
      },
    ])
    // argMax reads the same without FINAL (and on any merge state).
    const [arg] = await rows<{ crashed: number }>(
      client,
      `SELECT argMax(crashed, version) AS crashed FROM ${db}.session_minutes
        WHERE release = 'shop@1.0.0'`,
    )
    expect(Number(arg?.crashed)).toBe(1)
  })

  it('answers crash-free sessions of a release over a period (the docs query)', async () => {
    const { store, db } = await migrated()
    await store.insert([
      minute({ minute: '2026-11-22T10:15:00Z', healthy: 8, errored: 0, crashed: 0, version: '1' }),
      minute({ minute: '2026-11-22T10:16:00Z', healthy: 5, errored: 1, crashed: 1, version: '2' }),
      minute({ minute: '2026-11-22T10:16:00Z', healthy: 4, errored: 1, crashed: 2, version: '3' }),
      minute({ minute: '2026-09-01T10:00:00Z', healthy: 0, crashed: 50, version: '3' }),
    ])
    const [health] = await rows<{ sessions: string; crashes: string; crash_free: number }>(
      client,
      `SELECT sum(healthy + errored + abnormal + crashed) AS sessions, sum(crashed) AS crashes,
              1 - crashes / sessions AS crash_free
         FROM ${db}.session_minutes FINAL
        WHERE project_id = 'project-1' AND release = 'shop@1.0.0'
          AND minute >= toDateTime('2026-11-22 12:00:00') - INTERVAL 30 DAY`,
    )
    // 8 + (4 + 1 + 2): the second minute counts as its version 3 says.
    expect(Number(health?.sessions)).toBe(15)
    expect(Number(health?.crashes)).toBe(2)
    expect(health?.crash_free).toBeCloseTo(13 / 15)
  })

  it('uses the configured table name, and readiness names it when it is missing', async () => {
    const { store, db } = await migrated('health_1m')
    await store.insert([minute({ healthy: 4, version: '5' })])
    expect((await final(db, 'health_1m')).map((r) => r['healthy'])).toEqual([4])
    const [engine] = await rows<{ engine: string }>(
      client,
      `SELECT engine FROM system.tables WHERE database = '${db}' AND name = 'health_1m'`,
    )
    expect(engine?.engine).toBe('ReplacingMergeTree')
    expect(await store.checkReady()).toEqual({ ready: true, reachable: true, missingTables: [] })
    await client.command({ query: `DROP TABLE ${db}.health_1m` })
    expect(await store.checkReady()).toEqual({
      ready: false,
      reachable: true,
      missingTables: ['health_1m'],
    })
    await expect(store.insert([minute({ version: '6' })])).rejects.toMatchObject({
      code: 'insert_failed',
    })
    await store.migrate()
    expect((await store.checkReady()).ready).toBe(true)
  })
})
