import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { WriteOp } from '@tis/ingest'
import { createPgliteStore } from '@tis/storage-postgres'
import { call, createClient, SUITE_ENV, startServerProcess } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config'
import { createServer } from '../src/server'

const BASE_ENV = { PORT: '0', HOST: '127.0.0.1' }

describe('node src/main.ts', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tis-server-e2e-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('fails fast on bad configuration: exit 1, the variable named, no stack', async () => {
    const server = startServerProcess({ ...BASE_ENV, PORT: 'abc', SERVICE_LOG_LEVEL: 'loud' }, dir)
    expect(await server.exited).toBe(1)
    expect(server.output.stderr).toBe(
      'tis: invalid configuration:\n' +
        '  PORT must be an integer from 0 to 65535\n' +
        '  SERVICE_LOG_LEVEL must be one of debug, info, warn, error, silent\n',
    )
    expect(server.output.stdout).toBe('')
  })

  it('first run: prints the admin token and next steps; SIGTERM exits 0; a restart keeps data', async () => {
    const env = { ...BASE_ENV, SERVICE_DATA_DIR: 'data' }
    const first = startServerProcess(env, dir)
    const [, url] = await first.waitFor(/"msg":"listening","url":"([^"]+)"/)
    const [, token] = await first.waitFor(/access token: +(tis_user_\w+)/)
    expect(first.output.stdout).toContain('email:         admin@localhost')
    expect(first.output.stdout).toContain(
      `TIS_TOKEN=${token} TIS_URL=${url} pnpm tis projects create`,
    )

    // The printed steps work: a project, a key, an accepted event.
    const c = createClient(url!)
    const project = await c.createProject(token!)
    const key = await c.createKey(project.id, token!)
    const event = { event: { event_type: 'error', message: 'Hello from tis' } }
    expect((await c.ingest('/api/v1/ingest_events', key.token, event)).status).toBe(201)
    const health = await call(url!, 'GET', '/health')
    expect(health.body).toEqual({ status: 'ok' })
    expect(first.output.stdout).toMatch(
      /"msg":"request","method":"GET","path":"\/health","status":200,"duration_ms":[\d.]+,"request_id":"[\w-]+"/,
    )

    first.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    expect(first.output.stdout).toContain('"msg":"stopped"')

    const second = startServerProcess(env, dir)
    const [, again] = await second.waitFor(/"msg":"listening","url":"([^"]+)"/)
    const projects = await call(again!, 'GET', '/api/v1/projects', { token: token! })
    expect(projects.body.projects.map((p: { id: string }) => p.id)).toEqual([project.id])
    expect(second.output.stdout).not.toContain('access token')
    second.kill('SIGINT')
    expect(await second.exited).toBe(0)
  })
})

describe('graceful shutdown', () => {
  it('lets in-flight requests finish and flushes them before closing the store', async () => {
    const db = await PGlite.create()
    const store = createPgliteStore(db)
    await store.migrate()
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    let writing = () => {}
    const started = new Promise<void>((resolve) => {
      writing = resolve
    })
    const slowStore = {
      ...store,
      async append(batch: readonly WriteOp[]) {
        if (batch.some((op) => op.type === 'event')) {
          writing()
          await gate
        }
        return store.append(batch)
      },
    }
    const server = await createServer(loadConfig(SUITE_ENV), { store: slowStore })
    const { url } = await server.listen()
    const c = createClient(url)
    try {
      const { key } = await c.projectWithKey()
      const inFlight = c.ingest('/api/v1/ingest_events', key, {
        event: { event_type: 'error', message: 'in flight at shutdown' },
      })
      await started
      const closed = server.close()
      // New connections are refused while the accepted request is still being written.
      await expect(fetch(`${url}/health`)).rejects.toThrow()
      release()
      const reply = await inFlight
      expect(reply.status).toBe(201)
      await closed
      // A graceful stop also projects what it acknowledged.
      const rows = await db.query('select message from events where id = $1', [reply.body.id])
      expect(rows.rows).toEqual([{ message: 'in flight at shutdown' }])
    } finally {
      release()
      await server.close()
      await db.close()
    }
  })
})
