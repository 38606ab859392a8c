import { randomUUID } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { createPgliteStore, type PostgresIngestStore } from '@tis/storage-postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedDatabase } from './read-seed'
import { statementOf } from './read-statements'

const db = await PGlite.create({ extensions: { pg_trgm } })
const store = createPgliteStore(db)
const projectId = randomUUID()
const query = async <T>(sql: string, params: unknown[] = []) =>
  (await db.query<T>(sql, params)).rows
const count = async (sql: string) =>
  (await query<{ n: number }>(`select count(*)::int as n from ${sql}`, [projectId]))[0]?.n

beforeAll(async () => {
  await store.migrate()
  const ownerId = randomUUID()
  const createdAt = new Date()
  await store.createUser({ id: ownerId, email: 'bench@localhost', tokenDigest: 'x', createdAt })
  await store.createProject({
    id: projectId,
    name: 'bench',
    integrationKind: 'node',
    ownerId,
    createdAt,
  })
  const shape = { tag: 'main', events: 600, issues: 30, spans: 75 }
  await seedDatabase({ store, query }, [{ projectId, shape, keys: true }])
})

afterAll(() => db.close())

describe('the bench seeding', () => {
  it('writes through the log: the projection fills derived columns, keys and check-ins', async () => {
    expect(await count('events where project_id = $1')).toBe(600)
    expect(await count('spans where project_id = $1')).toBe(71)
    expect(
      await count(`events where project_id = $1 and event_type in ('transaction', 'metric')
        and name_key is null`),
    ).toBe(0)
    expect(
      await count(`events where project_id = $1 and event_type = 'error' and issue_id is null`),
    ).toBe(0)
    expect(await count(`ingest_keys where project_id = $1`)).toBe(671)
    expect(await count(`check_ins where project_id = $1`)).toBe(
      await count(`events where project_id = $1 and event_type = 'check_in'`),
    )
    expect(await count('monitors where project_id = $1')).toBe(10)
    expect(await count('deployments where project_id = $1')).toBe(18)
    expect(await count(`issues where project_id = $1 and status = 'resolved'`)).toBeGreaterThan(0)
    expect(await count('ingest_log where project_id = $1')).toBe(0)
  })
})

type Read = (s: PostgresIngestStore) => Promise<readonly object[]>

/**
 * What tells a read's rows apart, row by row: the id of an event, else the row's `count` (every
 * aggregate read has one), from the store's answer and from its captured statement run directly.
 */
async function both(read: Read) {
  const statement = await statementOf(read)
  const key = (row: object) => {
    const r = row as Record<string, unknown>
    return 'id' in r ? String(r['id']) : Number(r['count'])
  }
  return {
    store: (await read(store)).map(key),
    statement: (await query<object>(statement.text, [...statement.params])).map(key),
  }
}

describe('the EXPLAINed statements', () => {
  const since = new Date(Date.now() - 86_400_000)
  const until = new Date()
  const reads: Record<string, Read> = {
    'listEvents q=timeout': (s) => s.listEvents({ projectId, q: 'timeout', limit: 51 }),
    summarizeTransactions: (s) => s.summarizeTransactions({ projectId, since, until, limit: 50 }),
    metricBuckets: (s) =>
      s.metricBuckets({ projectId, name: 'db.query', since, until, intervalSeconds: 900 }),
    transactionLatency: (s) =>
      s.transactionLatency({ projectId, since, until, intervalSeconds: 900 }),
    issueActivity: async (s) => {
      const issueIds = (
        await query<{ id: string }>('select id from issues where project_id = $1', [projectId])
      ).map((r) => r.id)
      return s.issueActivity({ projectId, issueIds, since, until, intervalSeconds: 3600 })
    },
  }
  it.each(Object.entries(reads))('are the ones the store sends: %s', async (_, read) => {
    const rows = await both(read)
    expect(rows.store.length).toBeGreaterThan(0)
    expect(rows.statement).toEqual(rows.store)
  })
})
