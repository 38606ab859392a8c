import { randomUUID } from 'node:crypto'
import {
  ADMIN_TOKEN,
  type Client,
  createClient,
  type Harness,
  unique,
} from '@tis/test-utils/server'
import { expect, it } from 'vitest'

type Fields = Record<string, unknown>

const at = (minute: number, second = 0) =>
  new Date(Date.UTC(2026, 5, 1, 2, minute, second)).toISOString()

/**
 * A monitor's check-in history end to end (issue 17): check-ins sent to both endpoints, read
 * back through `GET …/monitors/:monitor_id` and `…/check_ins` with filters, pages and the read
 * API's access rules.
 */
export function describeCheckInHistory(harness: () => Harness) {
  async function setup() {
    const c = createClient(harness().url)
    const { projectId, key } = await c.projectWithKey()
    const base = `/api/v1/projects/${projectId}`
    return {
      c,
      projectId,
      async checkIn(fields: Fields) {
        const r = await c.ingest('/api/v1/check_ins', key, { check_in: fields })
        if (r.status !== 201) throw new Error(`check-in: ${r.status} ${r.text}`)
        return r.body.id as string
      },
      async event(fields: Fields) {
        const event = { event_type: 'check_in', ...fields }
        const r = await c.ingest('/api/v1/ingest_events', key, { event })
        if (r.status !== 201) throw new Error(`event: ${r.status} ${r.text}`)
        return r.body.id as string
      },
      get: (path: string, token = ADMIN_TOKEN) => c.api('GET', `${base}${path}`, { token }),
      async monitorOf(slug: string, environment = 'production') {
        const r = await c.api('GET', `${base}/monitors?slug=${slug}&environment=${environment}`, {
          token: ADMIN_TOKEN,
        })
        expect(r.body.monitors).toHaveLength(1)
        return r.body.monitors[0] as Fields & { id: string }
      },
    }
  }

  it('lists both endpoints’ check-ins newest first with what was stored and sent', async () => {
    const s = await setup()
    const slug = unique('nightly')
    const before = harness().now().getTime()
    const compactId = await s.checkIn({
      slug,
      status: 'ok',
      environment: 'production',
      release: 'v41',
      occurred_at: at(0),
      duration_ms: 5300,
      trace_id: 'trace-ok',
      request_id: 'req-ok',
      expected_interval_seconds: 86_400,
      host: 'worker-1',
      context: { region: 'eu', queue: { depthNow: 3 } },
    })
    const eventId = await s.event({
      message: 'nightly failed: disk full',
      check_in_slug: slug,
      check_in_status: 'error',
      environment: 'production',
      release: 'v42',
      trace_id: 'trace-err',
      occurred_at: at(1),
      attempt: 2,
    })
    // The same slug in staging is another monitor, with its own history.
    await s.checkIn({ slug, environment: 'staging', occurred_at: at(2) })

    const monitor = await s.monitorOf(slug)
    const one = await s.get(`/monitors/${monitor.id}`)
    expect(one.status).toBe(200)
    expect(one.body).toEqual({ monitor })
    expect(monitor).toMatchObject({ slug, environment: 'production', check_in_count: 2 })

    const r = await s.get(`/monitors/${monitor.id}/check_ins`)
    expect(r.status).toBe(200)
    expect(r.body.next_cursor).toBeNull()
    const [failed, ok] = r.body.check_ins as Fields[]
    expect(r.body.check_ins).toHaveLength(2)
    expect(failed).toMatchObject({
      occurred_at: at(1),
      status: 'error',
      duration_ms: null,
      environment: 'production',
      release: 'v42',
      trace_id: 'trace-err',
      request_id: null,
      source: 'event',
      event_id: eventId,
      message: 'nightly failed: disk full',
      extra: { attempt: 2 },
    })
    expect(failed!['context']).toMatchObject({ check_in_slug: slug, check_in_status: 'error' })
    expect(ok).toEqual({
      id: compactId,
      occurred_at: at(0),
      received_at: expect.any(String),
      status: 'ok',
      duration_ms: 5300,
      environment: 'production',
      release: 'v41',
      trace_id: 'trace-ok',
      request_id: 'req-ok',
      source: 'check_in',
      event_id: null,
      message: null,
      context: { region: 'eu', queue: { depthNow: 3 } },
      extra: { host: 'worker-1' },
    })
    const received = Date.parse(ok!['received_at'] as string)
    expect(received).toBeGreaterThanOrEqual(before)
    expect(received).toBeLessThanOrEqual(harness().now().getTime())
    // The event is the one the history points at.
    const event = await s.get(`/events/${eventId}`)
    expect(event.body.event).toMatchObject({ event_type: 'check_in', trace_id: 'trace-err' })
  })

  it('pages with keyset cursors over tied times, and filters by status and window', async () => {
    const s = await setup()
    const slug = unique('hourly')
    const sent: Array<[string, string]> = [
      ['ok', at(10)],
      ['in_progress', at(11)],
      ['ok', at(11)],
      ['error', at(11)],
      ['ok', at(12)],
    ]
    for (const [status, occurred_at] of sent) await s.checkIn({ slug, status, occurred_at })
    const { id } = await s.monitorOf(slug, 'e2e')
    const all = (await s.get(`/monitors/${id}/check_ins`)).body.check_ins as Fields[]
    expect(all.map((c) => c['occurred_at'])).toEqual([at(12), at(11), at(11), at(11), at(10)])
    const tied = all.slice(1, 4).map((c) => String(c['id']))
    expect(tied).toEqual([...tied].sort().reverse())

    const paged: unknown[] = []
    let cursor: string | null = ''
    while (cursor !== null) {
      const r = await s.get(`/monitors/${id}/check_ins?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(r.status).toBe(200)
      paged.push(...r.body.check_ins.map((c: Fields) => c['id']))
      cursor = r.body.next_cursor
    }
    expect(paged).toEqual(all.map((c) => c['id']))

    const statuses = async (query: string) =>
      ((await s.get(`/monitors/${id}/check_ins?${query}`)).body.check_ins as Fields[]).map(
        (c) => `${c['status']}@${String(c['occurred_at']).slice(14, 16)}`,
      )
    expect(await statuses('status=ok')).toEqual(['ok@12', 'ok@11', 'ok@10'])
    expect(await statuses('status=in_progress')).toEqual(['in_progress@11'])
    expect(await statuses(`since=${at(11)}&until=${at(12)}`)).toHaveLength(3)
    expect(await statuses(`status=error&since=${at(12)}`)).toEqual([])
  })

  it.each([
    ['limit=0', 'limit must be a positive integer'],
    ['cursor=nope', 'cursor is not a cursor of this list'],
    ['since=yesterday', 'since must be an RFC 3339 date-time'],
    ['status=', 'status must not be empty'],
    ['status=%00', 'status must not contain a NUL character'],
    [`since=${at(5)}&until=${at(5)}`, 'since must be before until'],
  ])('answers %s with 422 naming the parameter', async (query, message) => {
    const s = await setup()
    const slug = unique('bad')
    await s.checkIn({ slug })
    const { id } = await s.monitorOf(slug, 'e2e')
    const r = await s.get(`/monitors/${id}/check_ins?${query}`)
    expect(r.status).toBe(422)
    expect(r.body).toEqual({ errors: [message] })
  })

  it('answers 404 for an unknown or foreign monitor and applies the read access rules', async () => {
    const c: Client = createClient(harness().url)
    const s = await setup()
    const other = await setup()
    const slug = unique('private')
    await s.checkIn({ slug })
    const { id } = await s.monitorOf(slug, 'e2e')
    const notFound = { error: 'Not found' }
    for (const path of [`/monitors/${id}`, `/monitors/${id}/check_ins`]) {
      expect((await other.get(path)).body).toEqual(notFound)
      expect((await other.get(path)).status).toBe(404)
    }
    for (const bad of [randomUUID(), 'not-a-uuid', '%00']) {
      expect((await s.get(`/monitors/${bad}`)).status).toBe(404)
      const list = await s.get(`/monitors/${bad}/check_ins?limit=0`)
      expect([list.status, list.body]).toEqual([404, notFound])
    }

    const owner = await c.createUser()
    const member = await c.createUser()
    const stranger = await c.createUser()
    const project = await c.createProject(owner.token)
    const key = await c.createKey(project.id, owner.token)
    await c.api('POST', `/api/v1/projects/${project.id}/members`, {
      token: owner.token,
      json: { member: { email: member.email } },
    })
    await c.ingest('/api/v1/check_ins', key.token, { check_in: { slug } })
    const path = `/api/v1/projects/${project.id}`
    const listed = await c.api('GET', `${path}/monitors?slug=${slug}`, { token: owner.token })
    const monitorId = listed.body.monitors[0].id as string
    for (const suffix of [`/monitors/${monitorId}`, `/monitors/${monitorId}/check_ins`]) {
      for (const token of [owner.token, member.token, ADMIN_TOKEN]) {
        expect((await c.api('GET', `${path}${suffix}`, { token })).status).toBe(200)
      }
      expect((await c.api('GET', `${path}${suffix}`, { token: stranger.token })).status).toBe(404)
      expect((await c.api('GET', `${path}${suffix}`)).status).toBe(401)
    }
  })

  it('keeps the history complete beyond one page and the monitor count in step', async () => {
    const s = await setup()
    const slug = unique('busy')
    for (let n = 0; n < 12; n++) await s.checkIn({ slug, occurred_at: at(20, n) })
    const monitor = await s.monitorOf(slug, 'e2e')
    expect(monitor['check_in_count']).toBe(12)
    const first = await s.get(`/monitors/${monitor.id}/check_ins?limit=10`)
    expect(first.body.check_ins).toHaveLength(10)
    expect(first.body.check_ins[0].occurred_at).toBe(at(20, 11))
    const rest = await s.get(`/monitors/${monitor.id}/check_ins?cursor=${first.body.next_cursor}`)
    expect(rest.body.check_ins.map((c: Fields) => c['occurred_at'])).toEqual([at(20, 1), at(20, 0)])
    expect(rest.body.next_cursor).toBeNull()
  })
}
