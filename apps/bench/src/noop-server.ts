// The baseline: the same framework answering the same request with 201 and no I/O at all.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const app = new Hono()
app.get('/health', (c) => c.json({ status: 'ok' }))
app.post('/api/v1/ingest_events', async (c) => {
  await c.req.json()
  return c.json({ id: crypto.randomUUID(), legacy_id: 1, status: 'accepted' }, 201)
})
serve({ fetch: app.fetch, port: Number(process.env['PORT']), hostname: '127.0.0.1' })
