// The naive baseline: the same framework, and for each request one INSERT in its own
// transaction, answered once it committed — what a straightforward durable implementation does.
// PostgreSQL through DATABASE_URL (a pool of 10), else PGlite on NAIVE_DATA_DIR.
import { randomUUID } from 'node:crypto'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const CREATE = `create table if not exists naive_events (
  id uuid primary key, received_at timestamptz not null, payload jsonb not null)`
const INSERT = 'insert into naive_events (id, received_at, payload) values ($1, now(), $2)'

type Insert = (id: string, payload: string) => Promise<void>

async function connect(): Promise<Insert> {
  const url = process.env['DATABASE_URL']
  if (url) {
    const { default: postgres } = await import('postgres')
    const sql = postgres(url, { max: 10, onnotice: () => {} })
    await sql.unsafe(CREATE)
    return async (id, payload) => {
      await sql.unsafe(INSERT, [id, payload])
    }
  }
  const { PGlite } = await import('@electric-sql/pglite')
  const db = await PGlite.create(process.env['NAIVE_DATA_DIR'])
  await db.exec(CREATE)
  return async (id, payload) => {
    await db.query(INSERT, [id, payload])
  }
}

const insert = await connect()
const app = new Hono()
app.get('/health', (c) => c.json({ status: 'ok' }))
app.post('/api/v1/ingest_events', async (c) => {
  const body = (await c.req.json()) as { event?: unknown }
  if (typeof body?.event !== 'object' || body.event === null) return c.json({ error: 'e' }, 400)
  const id = randomUUID()
  await insert(id, JSON.stringify(body.event))
  return c.json({ id, status: 'accepted' }, 201)
})
serve({ fetch: app.fetch, port: Number(process.env['PORT']), hostname: '127.0.0.1' })
