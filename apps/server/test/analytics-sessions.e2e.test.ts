// Release health in the analytics store: sessions sent over HTTP to a server with the analytics
// store on (PGlite, a real ClickHouse started by the test) reach its session table, named by
// SERVICE_ANALYTICS_SESSIONS_TABLE, with the counts of `session_minutes`, also after a crash
// moves a session that was exported healthy; health names the table when it is missing.

import { randomBytes, randomUUID } from 'node:crypto'
import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client'
import { PGlite } from '@electric-sql/pglite'
import { createPgliteStore } from '@tis/storage-postgres'
import { describeWithClickHouse } from '@tis/test-utils/clickhouse-suite'
import { type Client, createClient as createHttpClient, SUITE_ENV } from '@tis/test-utils/server'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loadConfig } from '../src/config'
import { createLogger } from '../src/logger'
import { createServer, type TisServer } from '../src/server'

const TABLE = 'health_1m'
const NOW = Date.now()
const minute = (ago: number) => new Date(NOW - ago * 60_000).toISOString()
const dateTime = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ')

interface MinuteRow {
  release: string
  environment: string
  minute: string
  healthy: number
  errored: number
  abnormal: number
  crashed: number
}

describeWithClickHouse('release health in the analytics store', (clickhouse) => {
  const database = `e2e_${randomBytes(5).toString('hex')}`
  let db: PGlite
  let ch: ClickHouseClient
  let server: TisServer
  let http: Client
  let key = ''
  let projectId = ''

  beforeAll(async () => {
    db = await PGlite.create()
    ch = createClient({
      url: clickhouse().url,
      request_timeout: 5_000,
      log: { level: ClickHouseLogLevel.OFF },
    })
    const store = createPgliteStore(db, { analytics: true })
    await store.migrate()
    const config = loadConfig({
      ...SUITE_ENV,
      SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '100000',
      SERVICE_ANALYTICS_ENABLED: 'true',
      SERVICE_ANALYTICS_URL: clickhouse().url,
      SERVICE_ANALYTICS_DATABASE: database,
      SERVICE_ANALYTICS_SESSIONS_TABLE: TABLE,
      SERVICE_LOG_LEVEL: 'warn',
    })
    server = await createServer(config, {
      store,
      outbox: store.outbox,
      analyticsDrainIntervalMs: 100,
      logger: createLogger({ level: 'warn', write: () => {} }),
    })
    http = createHttpClient((await server.listen()).url)
    ;({ key, projectId } = await http.projectWithKey())
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await ch?.close()
    await db?.close()
  })

  /** `session_minutes` of the project, as the primary database holds it. */
  async function primary(): Promise<MinuteRow[]> {
    const result = await db.query<Omit<MinuteRow, 'minute'> & { minute: Date }>(
      `select release, environment, minute, healthy, errored, abnormal, crashed
         from session_minutes where project_id = $1 order by release, environment, minute`,
      [projectId],
    )
    return result.rows.map((r) => ({ ...r, minute: dateTime(r.minute) }))
  }

  /** The analytics store's rows of the project, FINAL: the highest version of each key. */
  async function analytics(): Promise<MinuteRow[]> {
    const result = await ch.query({
      query: `SELECT release, environment, minute, healthy, errored, abnormal, crashed
                FROM ${database}.${TABLE} FINAL WHERE project_id = '${projectId}'
               ORDER BY release, environment, minute`,
      format: 'JSONEachRow',
    })
    return result.json<MinuteRow>()
  }

  /**
   * Waits until `session_minutes` holds `projected` (the projection passed what was sent) and the
   * analytics store holds the same (or 30 s pass).
   */
  async function converged(projected: (rows: MinuteRow[]) => boolean) {
    const deadline = Date.now() + 30_000
    for (;;) {
      const [want, got] = await Promise.all([primary(), analytics().catch(() => [])])
      const done = projected(want) && JSON.stringify(want) === JSON.stringify(got)
      if (done || Date.now() > deadline) return { want, got }
      await new Promise((r) => setTimeout(r, 200))
    }
  }

  const send = async (body: object) => {
    const r = await http.ingest('/api/v1/sessions', key, body)
    expect(r.status, JSON.stringify(r.body)).toBe(201)
  }
  const update = (sid: string, state: object, release = 'shop@1.0.0') => ({
    session: { sid, started: minute(3), attrs: { release, environment: 'production' }, ...state },
  })
  const crashed = randomUUID()

  it('exports the counts of session_minutes: single updates and aggregates', async () => {
    await send(update(crashed, { init: true, status: 'ok' }))
    await send(update(randomUUID(), { init: true, status: 'ok' }))
    await send(update(randomUUID(), { init: true, status: 'exited', errors: 2 }))
    await send(update(randomUUID(), { init: true, status: 'ok' }, 'shop@2.0.0'))
    await send({
      sessions: {
        aggregates: [
          { started: minute(3), exited: 5, errored: 1, crashed: 1 },
          { started: minute(2), exited: 2, abnormal: 1 },
        ],
        attrs: { release: 'shop@1.0.0', environment: 'production' },
      },
    })
    const { want, got } = await converged((rows) => rows.length === 3 && rows[0]!.healthy === 7)
    expect(want.map((r) => [r.release, r.healthy, r.errored, r.abnormal, r.crashed])).toEqual([
      ['shop@1.0.0', 7, 2, 0, 1],
      ['shop@1.0.0', 2, 0, 1, 0],
      ['shop@2.0.0', 1, 0, 0, 0],
    ])
    expect(got).toEqual(want)
  })

  it('moves a session exported as healthy to crashed when its crash arrives', async () => {
    await send(update(crashed, { init: false, status: 'crashed', errors: 1 }))
    const { want, got } = await converged((rows) => rows[0]?.crashed === 2)
    expect(want[0]).toMatchObject({ release: 'shop@1.0.0', healthy: 6, crashed: 2 })
    expect(got).toEqual(want)
    // Before a merge the table may hold the older export too; FINAL reads the newest only.
    const [crashFree] = await (
      await ch.query({
        query: `SELECT 1 - sum(crashed) / sum(healthy + errored + abnormal + crashed) AS crash_free
                  FROM ${database}.${TABLE} FINAL
                 WHERE project_id = '${projectId}' AND release = 'shop@1.0.0'
                   AND minute >= now() - INTERVAL 30 DAY`,
        format: 'JSONEachRow',
      })
    ).json<{ crash_free: number }>()
    expect(crashFree?.crash_free).toBeCloseTo(1 - 2 / 13)
  })

  it('answers 503 naming the session table when it is missing', async () => {
    await ch.command({ query: `DROP TABLE ${database}.${TABLE}` })
    const r = await http.api('GET', '/health/analytics_store')
    expect(r.status).toBe(503)
    expect(r.body).toMatchObject({ status: 'degraded', ready: false, missing_tables: [TABLE] })
    await server.analytics.migrate()
    expect((await http.api('GET', '/health/analytics_store')).status).toBe(200)
  })
})
