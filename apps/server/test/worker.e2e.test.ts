// `tis worker` and `tis analytics migrate` against real PostgreSQL and a real ClickHouse server:
// a server that does not drain (SERVICE_ANALYTICS_DRAIN=false) queues; two workers drain the
// queue together, each row exactly once (FOR UPDATE SKIP LOCKED leases).

import { randomBytes } from 'node:crypto'
import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client'
import { describeWithClickHouse } from '@tis/test-utils/clickhouse-suite'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import { createClient as createHttpClient, SUITE_ENV } from '@tis/test-utils/server'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCli } from '../src/cli/run'
import { loadConfig } from '../src/config'
import { createServer, type TisServer } from '../src/server'

describeWithTestDatabase('tis worker', (baseUrl) => {
  describeWithClickHouse('tis worker and tis analytics migrate', (clickhouse) => {
    const schema = `tis_worker_${randomBytes(5).toString('hex')}`
    const database = `w_${randomBytes(5).toString('hex')}`
    let admin: postgres.Sql
    let ch: ClickHouseClient
    let server: TisServer
    let env: Record<string, string>
    let url = ''

    beforeAll(async () => {
      admin = postgres(baseUrl, { max: 1, onnotice: () => {} })
      await admin.unsafe(`create schema ${schema}`)
      const databaseUrl = new URL(baseUrl)
      databaseUrl.searchParams.set('search_path', schema)
      env = {
        ...SUITE_ENV,
        SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '100000',
        DATABASE_URL: databaseUrl.toString(),
        SERVICE_ANALYTICS_ENABLED: 'true',
        SERVICE_ANALYTICS_URL: clickhouse().url,
        SERVICE_ANALYTICS_DATABASE: database,
        SERVICE_ANALYTICS_DRAIN: 'false',
      }
      server = await createServer(loadConfig(env))
      url = (await server.listen()).url
      ch = createClient({
        url: clickhouse().url,
        request_timeout: 5_000,
        log: { level: ClickHouseLogLevel.OFF },
      })
    })
    afterAll(async () => {
      await server?.close()
      await ch?.close()
      await admin?.unsafe(`drop schema ${schema} cascade`)
      await admin?.end()
    })

    const count = async (ids: readonly string[]) => {
      const list = ids.map((id) => `'${id}'`).join(',')
      const result = await ch.query({
        query: `SELECT count() AS n, uniqExact(id) AS u FROM ${database}.events_raw WHERE toString(id) IN (${list})`,
        format: 'JSONEachRow',
      })
      const [row] = await result.json<{ n: string; u: string }>()
      return { n: Number(row?.n), u: Number(row?.u) }
    }

    /** Runs `tis …` in-process; `stop` ends a worker. */
    function tis(argv: string[], stop?: Promise<void>, extra: Record<string, string> = {}) {
      const out: string[] = []
      const err: string[] = []
      const code = runCli(argv, {
        env: { ...env, ...extra },
        stdout: (t) => out.push(t),
        stderr: (t) => err.push(t),
        ...(stop ? { stop } : {}),
      })
      return { code, out, err }
    }

    it('tis analytics migrate creates the tables; refuses when analytics is disabled', async () => {
      const migrated = tis(['analytics', 'migrate'])
      expect(await migrated.code).toBe(0)
      expect(migrated.out.join('')).toMatch(
        new RegExp(`^Analytics store ready: ClickHouse \\d+\\.\\d+.*database ${database}`),
      )
      const disabled = runCli(['analytics', 'migrate'], {
        env: { ...env, SERVICE_ANALYTICS_ENABLED: 'false' },
        stdout: () => {},
        stderr: () => {},
      })
      expect(await disabled).toBe(2)
    })

    it('queues without draining; two workers export every row exactly once, then stop', async () => {
      const http = createHttpClient(url)
      const { key } = await http.projectWithKey()
      const ids: string[] = []
      for (let i = 0; i < 60; i++) {
        const r = await http.ingest('/api/v1/ingest_events', key, {
          event: { event_type: 'log', message: `queued ${i}` },
        })
        expect(r.status).toBe(201)
        ids.push(r.body.id as string)
      }
      // Outbox rows are written by the projection behind the 201s.
      expect(await server.engine.settled()).toBe(true)
      const queued = await http.api('GET', '/health/analytics_store')
      expect(queued.body.queue.depth).toBe(60)
      expect(await count(ids)).toEqual({ n: 0, u: 0 })

      let stop = () => {}
      const stopped = new Promise<void>((resolve) => {
        stop = resolve
      })
      const workers = [
        tis(['worker'], stopped, { SERVICE_LOG_LEVEL: 'info' }),
        tis(['worker'], stopped),
      ]
      const deadline = Date.now() + 30_000
      while ((await count(ids)).n < 60 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200))
      }
      stop()
      expect(await Promise.all(workers.map((w) => w.code))).toEqual([0, 0])
      expect(await count(ids)).toEqual({ n: 60, u: 60 })
      const drained = await http.api('GET', '/health/analytics_store')
      expect(drained.body.queue.depth).toBe(0)
      expect(workers[0]!.out.join('')).toContain('worker started')
    })

    it('refuses to run on the embedded database', async () => {
      const { DATABASE_URL: _, ...embedded } = env
      const errors: string[] = []
      const code = await runCli(['worker'], {
        env: { ...embedded, SERVICE_DATA_DIR: ':memory:' },
        stdout: () => {},
        stderr: (t) => errors.push(t),
      })
      expect(code).toBe(2)
      expect(errors.join('')).toContain('tis worker needs PostgreSQL (DATABASE_URL)')
    })
  })
})
