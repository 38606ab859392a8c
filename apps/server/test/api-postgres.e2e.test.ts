import { randomUUID } from 'node:crypto'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import {
  ADMIN_TOKEN,
  call,
  createClient,
  type Harness,
  startPostgresHarness,
} from '@tis/test-utils/server'
import { afterAll, beforeAll, expect, it } from 'vitest'

// The HTTP smoke on real PostgreSQL (TEST_DATABASE_URL, else the run's embedded server), through
// DATABASE_URL as in production, in a schema of this suite's own: the whole HTTP interface runs
// on PGlite (api-pglite.e2e.test.ts) and the store contract on both drivers; this checks that
// the server composed over postgres.js answers the wire as it does on PGlite.
describeWithTestDatabase('server on PostgreSQL (HTTP smoke)', (url) => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPostgresHarness(url)
  })
  afterAll(() => harness?.close())

  const read = (projectId: string, path: string, token = ADMIN_TOKEN) =>
    call(harness.url, 'GET', `/api/v1/projects/${projectId}${path}`, { token })

  it('ingests an error and reads it back as an event of its issue', async () => {
    const c = createClient(harness.url)
    const { projectId, key } = await c.projectWithKey()
    const event = { event_type: 'error', message: 'Smoke boom', environment: 'prod' }
    const first = await c.ingest('/api/v1/ingest_events', key, { event })
    expect(first.status).toBe(201)
    expect((await c.ingest('/api/v1/ingest_events', key, { event })).status).toBe(201)
    const issues = (await read(projectId, '/issues')).body.issues
    expect(issues).toMatchObject([{ title: 'Smoke boom', count: 2, status: 'unresolved' }])
    const events = (await read(projectId, '/events')).body.events
    expect(events.map((e: { id: string }) => e.id)).toContain(first.body.id)
    const one = await read(projectId, `/events/${first.body.id}`)
    expect(one.status).toBe(200)
    expect(one.body.event).toMatchObject({ id: first.body.id, message: 'Smoke boom' })
  })

  it('accepts an NDJSON batch (202) and stores every line; a duplicate id answers 200', async () => {
    const c = createClient(harness.url)
    const { projectId, key } = await c.projectWithKey()
    const ids = [randomUUID(), randomUUID()]
    const body = ids
      .map((id, n) =>
        JSON.stringify({ event: { event_type: 'log', message: `l${n}`, event_id: id } }),
      )
      .join('\n')
    const batch = await call(harness.url, 'POST', '/api/v1/ingest_events/batch', {
      text: `${body}\n`,
      token: key,
      headers: { 'Content-Type': 'application/x-ndjson' },
    })
    expect(batch.status, batch.text).toBe(202)
    expect(batch.body).toMatchObject({ status: 'accepted', accepted: 2, duplicates: 0 })
    const again = await c.ingest('/api/v1/ingest_events', key, {
      event: { event_type: 'log', message: 'l0', event_id: ids[0] },
    })
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ id: ids[0], duplicate: true })
    const stored = (await read(projectId, '/events')).body.events.map((e: { id: string }) => e.id)
    expect(stored.sort()).toEqual([...ids].sort())
  })

  it('answers 422 with the reasons for an invalid event and stores nothing', async () => {
    const c = createClient(harness.url)
    const { projectId, key } = await c.projectWithKey()
    const bad = await c.ingest('/api/v1/ingest_events', key, {
      event: { event_type: 'nope', message: 'x' },
    })
    expect(bad.status).toBe(422)
    expect(bad.body.errors.length).toBeGreaterThan(0)
    expect((await read(projectId, '/events')).body.events).toEqual([])
  })

  it('refuses a missing or revoked key (401) and hides a project from a stranger (404)', async () => {
    const c = createClient(harness.url)
    const { projectId, key, keyId } = await c.projectWithKey()
    const event = { event: { event_type: 'log', message: 'x' } }
    const none = await call(harness.url, 'POST', '/api/v1/ingest_events', { json: event })
    expect(none).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
    const revoked = await c.api('DELETE', `/api/v1/projects/${projectId}/api_keys/${keyId}`, {
      token: ADMIN_TOKEN,
    })
    expect(revoked.status).toBeLessThan(300)
    expect((await c.ingest('/api/v1/ingest_events', key, event)).status).toBe(401)
    const stranger = await c.createUser()
    expect((await read(projectId, '/issues', stranger.token)).status).toBe(404)
    expect((await read(projectId, '/issues', 'tis_user_nope')).status).toBe(401)
  })
})
