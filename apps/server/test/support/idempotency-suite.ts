import { randomUUID } from 'node:crypto'
import { ADMIN_TOKEN, createClient, type Harness } from '@tis/test-utils/server'
import { expect, it } from 'vitest'

/**
 * Idempotent ingest end to end: a client `event_id` (alias `uuid`) is the record's id; a repeat
 * within the project answers 200 with `duplicate: true` and changes nothing.
 */
export function describeIdempotency(harness: () => Harness) {
  async function setup() {
    const c = createClient(harness().url)
    const { projectId, key } = await c.projectWithKey()
    return {
      c,
      key,
      projectId,
      event: (event: object) => c.ingest('/api/v1/ingest_events', key, { event }),
      checkIn: (check_in: object) => c.ingest('/api/v1/check_ins', key, { check_in }),
      get: (path: string) =>
        c.api('GET', `/api/v1/projects/${projectId}${path}`, { token: ADMIN_TOKEN }),
    }
  }

  it('stores an event under its event_id once; repeats answer 200 with the original', async () => {
    const s = await setup()
    const id = randomUUID().toUpperCase()
    const body = { event_type: 'error', message: 'Boom once', event_id: id }
    const first = await s.event(body)
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({ id: id.toLowerCase(), status: 'accepted' })
    expect(first.body).not.toHaveProperty('duplicate')
    // A retry, even with other content and the alias spelling, changes nothing.
    const again = await s.event({ event_type: 'error', message: 'Boom twice', uuid: id })
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ ...first.body, duplicate: true })
    const issues = await s.get('/issues')
    expect(
      issues.body.issues.map((i: { title: string; count: number }) => [i.title, i.count]),
    ).toEqual([['Boom once', 1]])
    const events = await s.get('/events')
    expect(events.body.events).toHaveLength(1)
  })

  it('counts a repeated check-in once', async () => {
    const s = await setup()
    const id = randomUUID()
    const checkIn = { slug: 'backup', status: 'ok', event_id: id }
    expect((await s.checkIn(checkIn)).status).toBe(201)
    const again = await s.checkIn(checkIn)
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ id, status: 'accepted', duplicate: true })
    const monitors = await s.get('/monitors')
    expect(monitors.body.monitors[0]).toMatchObject({ slug: 'backup', check_in_count: 1 })
  })

  it('identifies spans by (trace_id, span_id)', async () => {
    const s = await setup()
    const span = {
      event_type: 'span',
      name: 'SELECT 1',
      trace_id: 'd'.repeat(32),
      span_id: 'e'.repeat(16),
      duration_ms: 3,
    }
    const first = await s.event(span)
    expect(first.status).toBe(201)
    const again = await s.event({ ...span, name: 'renamed' })
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ ...first.body, duplicate: true })
    const trace = await s.get(`/traces/${'d'.repeat(32)}`)
    expect(trace.body.spans.map((x: { name: string }) => x.name)).toEqual(['SELECT 1'])
  })

  it("rejects a malformed event_id and another project's event_id with 422", async () => {
    const s = await setup()
    const bad = await s.event({ event_type: 'log', message: 'x', event_id: 'nope' })
    expect(bad.status).toBe(422)
    expect(bad.body.errors).toEqual([
      'event_id is invalid (must be a UUID such as 0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6071)',
    ])
    const id = randomUUID()
    expect((await s.event({ event_type: 'log', message: 'mine', event_id: id })).status).toBe(201)
    const other = await setup()
    const taken = await other.event({ event_type: 'log', message: 'theirs', event_id: id })
    expect(taken.status).toBe(422)
    expect(taken.body.errors).toEqual(['event_id is already used by another project'])
    expect((await other.get('/events')).body.events).toEqual([])
  })
}
