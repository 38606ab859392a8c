import { randomBytes } from 'node:crypto'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import { describeStoreContract } from '@tis/test-utils/store-contract'
import { describeAlertDeliveriesContract } from '@tis/test-utils/store-contract-alert-deliveries'
import { describeArtifactStoreContract } from '@tis/test-utils/store-contract-artifacts'
import postgres from 'postgres'
import { describe, expect, it } from 'vitest'
import {
  createPostgresStore,
  MIGRATIONS,
  type OpenPostgresStoreOptions,
  openPostgresStore,
} from '../src/index'
import { createPostgresExecutor } from '../src/postgres-executor'
import { describeAlertUpgrade } from './alert-upgrade-suite'
import { describeAnalyticsCursor } from './analytics-cursor-suite'
import { describeAnalyticsSessions } from './analytics-sessions-suite'
import { describeIssueUsersUpgrade } from './issue-users-upgrade-suite'
import { describeOutboxUpgrade } from './outbox-upgrade-suite'
import { createSqlProbe } from './probe'

// The URL comes from the globalSetup (TEST_DATABASE_URL, else one embedded server per run).
// Each suite works in a schema of its own, dropped at the end, so a shared server stays clean.

async function createSchema(url: string): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = `tis_test_${randomBytes(6).toString('hex')}`
  const admin = postgres(url, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create schema ${schema}`)
  return {
    schema,
    async drop() {
      await admin.unsafe(`drop schema ${schema} cascade`)
      await admin.end()
    },
  }
}

const clientFor = (schema: string) =>
  ({ max: 4, onnotice: () => {}, connection: { search_path: schema } }) as const

/** A store opened with these options in a schema of its own, and SQL on that schema. */
async function storeWithQuery(url: string, options: Omit<OpenPostgresStoreOptions, 'client'>) {
  const { schema, drop } = await createSchema(url)
  const store = await openPostgresStore(url, { client: clientFor(schema), ...options })
  const sql = postgres(url, clientFor(schema))
  const exec = createPostgresExecutor(sql)
  return {
    store,
    query: <T>(text: string, params: readonly string[] = []) =>
      exec.query(text, params) as Promise<T[]>,
    async close() {
      await Promise.all([store.close(), sql.end()])
      await drop()
    },
  }
}

describeWithTestDatabase('PostgreSQL', (url) => {
  describeStoreContract('PostgreSQL', async () => {
    const { schema, drop } = await createSchema(url)
    const store = await openPostgresStore(url, { client: clientFor(schema) })
    const sql = postgres(url, clientFor(schema))
    return {
      store,
      probe: createSqlProbe(createPostgresExecutor(sql)),
      async close() {
        await store.close()
        await sql.end()
        await drop()
      },
    }
  })

  describeAlertDeliveriesContract('PostgreSQL', async () => {
    const { schema, drop } = await createSchema(url)
    // Two stores with connections of their own: their claims really run at once.
    const first = await openPostgresStore(url, { client: clientFor(schema) })
    const second = await openPostgresStore(url, { client: clientFor(schema) })
    const sql = postgres(url, clientFor(schema))
    const exec = createPostgresExecutor(sql)
    return {
      first,
      second,
      query: <T>(text: string, params: readonly string[]) =>
        exec.query(text, params) as Promise<T[]>,
      async close() {
        await Promise.all([first.close(), second.close(), sql.end()])
        await drop()
      },
    }
  })

  describeArtifactStoreContract('PostgreSQL', ({ enrich }) => storeWithQuery(url, { enrich }))

  describeAnalyticsCursor('PostgreSQL', async () => {
    const { schema, drop } = await createSchema(url)
    const analytics = await openPostgresStore(url, {
      client: clientFor(schema),
      analytics: true,
    })
    const plain = await openPostgresStore(url, { client: clientFor(schema) })
    return {
      analytics,
      plain,
      async close() {
        await Promise.all([analytics.close(), plain.close()])
        await drop()
      },
    }
  })

  describeAnalyticsSessions('PostgreSQL', () => storeWithQuery(url, { analytics: true }))

  const upgradeHarness = async () => {
    const { schema, drop } = await createSchema(url)
    const store = await openPostgresStore(url, { client: clientFor(schema), migrate: false })
    const sql = postgres(url, clientFor(schema))
    return {
      db: createPostgresExecutor(sql),
      store,
      async close() {
        await store.close()
        await sql.end()
        await drop()
      },
    }
  }
  describeAlertUpgrade('PostgreSQL', upgradeHarness)
  describeOutboxUpgrade('PostgreSQL', upgradeHarness)
  describeIssueUsersUpgrade('PostgreSQL', upgradeHarness)

  describe('PostgreSQL migrations and locking', () => {
    it('are safe when several instances migrate the same database at once', async () => {
      const { schema, drop } = await createSchema(url)
      const clients = [1, 2, 3].map(() => postgres(url, clientFor(schema)))
      try {
        await Promise.all(clients.map((sql) => createPostgresStore(sql).migrate()))
        await createPostgresStore(clients[0]!).migrate()
        const rows = await clients[0]!.unsafe('select version from schema_migrations order by 1')
        expect(rows.map((r) => r['version'])).toEqual(MIGRATIONS.map((m) => m.version))
      } finally {
        await Promise.all(clients.map((sql) => sql.end()))
        await drop()
      }
    })

    it('backs text search with a pg_trgm index', async () => {
      const { schema, drop } = await createSchema(url)
      const store = await openPostgresStore(url, { client: clientFor(schema) })
      const sql = postgres(url, clientFor(schema))
      try {
        const rows = await sql`select indexname from pg_indexes
          where schemaname = ${schema} and indexname = 'events_message_trgm_idx'`
        expect(rows).toHaveLength(1)
      } finally {
        await store.close()
        await sql.end()
        await drop()
      }
    })

    it('stores no session for a sign-in that races a rotation committing after its lookup', async () => {
      const { schema, drop } = await createSchema(url)
      const store = await openPostgresStore(url, { client: clientFor(schema) })
      const sql = postgres(url, { ...clientFor(schema), max: 1 })
      const at = new Date('2026-01-01T00:00:00Z')
      const userId = '01950000-0000-7000-8000-0000000000aa'
      const old = 'a'.repeat(64)
      try {
        await store.createUser({
          id: userId,
          email: 'race@example.com',
          tokenDigest: old,
          createdAt: at,
        })
        let signedIn: Promise<unknown> | undefined
        // The rotation deletes the token, then the sign-in's insert runs while it is uncommitted:
        // the insert still sees the token, and its foreign key check waits for the rotation.
        await sql.begin(async (tx) => {
          await tx`delete from user_tokens where digest = ${old}`
          signedIn = store.createSession({
            id: '01950000-0000-7000-8000-0000000000ab',
            digest: 'b'.repeat(64),
            userId,
            tokenDigest: old,
            createdAt: at,
            lastSeenAt: at,
            idleExpiresAt: new Date(at.getTime() + 60_000),
            expiresAt: new Date(at.getTime() + 60_000),
            userAgent: null,
            ip: null,
          })
          await new Promise((resolve) => setTimeout(resolve, 300))
        })
        expect(await signedIn).toBeNull()
        expect(await store.findSession('b'.repeat(64))).toBeNull()
      } finally {
        await store.close()
        await sql.end()
        await drop()
      }
    })

    it('reports a refused connection as StoreError unavailable', async () => {
      const attempt = openPostgresStore('postgres://nobody:x@127.0.0.1:1/none', {
        client: { connect_timeout: 2 },
      })
      await expect(attempt).rejects.toMatchObject({ name: 'StoreError', code: 'unavailable' })
    })

    // postgres.js 3.4.9 keeps its row counter when a query fails after some rows (or its
    // connection closes mid-stream): the next query on that connection resolves with leading
    // holes (porsager/postgres#1119, #1181). Seen in CI as a credential lookup reading
    // `undefined` right after PostgreSQL came back.
    it('answers the whole result, no holes, after a query failed mid-stream on the connection', async () => {
      const sql = postgres(url, { max: 1, onnotice: () => {} })
      try {
        const db = createPostgresExecutor(sql)
        const failMidStream = () =>
          expect(
            db.query('select i, 1 / (4 - i) as boom from generate_series(1, 10) i'),
          ).rejects.toThrow(/division by zero/)
        await failMidStream()
        // Text columns: the holes would pass through unnoticed.
        const texts = await db.query<{ t: string }>("select 'a' as t union all select 'b'")
        expect(texts).toEqual([{ t: 'a' }, { t: 'b' }])
        await failMidStream()
        // int8 columns, normalised row by row: the holes threw a TypeError.
        const [counted] = await db.pipeline([
          { text: 'select x::int8 as x from generate_series(1, 5) x', params: [] },
        ])
        expect(counted).toEqual([1, 2, 3, 4, 5].map((x) => ({ x })))
      } finally {
        await sql.end()
      }
    })
  })
})
