// Release health as a host that embeds the engine sees it, over the real store on PGlite: the
// status machine end to end (init, terminal states, out-of-order, repeats, aggregates beside
// single updates), `POST /api/v1/sessions` and Sentry envelopes, and the release reads with
// their access rules. The real SDKs' sessions are apps/server/test/release-health.e2e.test.ts.

import { type AdminTestEngine, bearer, openAdminTestEngine } from '@tis/test-utils/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Engine, EngineResponse } from '../src/index'

let base: AdminTestEngine
let e: Engine

beforeAll(async () => {
  base = await openAdminTestEngine()
  e = base.engine
}, 60_000)
afterAll(() => base?.close())

/** A project owned by a new user, with an API key, its number and DSN key. */
async function project() {
  const owner = await base.user(`owner-${Math.random().toString(36).slice(2)}@example.com`)
  const created = await e.management.createProject({
    headers: bearer(owner),
    body: { project: { name: 'Shop', integration_kind: 'node' } },
  })
  const p = (created.body as { project: { id: string; number: number; dsn: string } }).project
  const key = await e.management.createApiKey({ headers: bearer(owner), params: { id: p.id } })
  const dsnKey = /^https?:\/\/([0-9a-f]{32})@/.exec(p.dsn)?.[1] ?? ''
  return { id: p.id, number: p.number, owner, dsnKey, key: (key.body as { token: string }).token }
}
type Project = Awaited<ReturnType<typeof project>>

const NOW = Date.now()
const minute = (offset: number) => new Date(NOW - offset * 60_000).toISOString()

const send = (p: Project, body: object) => e.ingest.recordSessions({ headers: bearer(p.key), body })

const update = (sid: string, state: object, release = 'shop@1.0.0') => ({
  session: { sid, started: minute(30), attrs: { release, environment: 'production' }, ...state },
})

async function releases(p: Project, query: Record<string, string> = {}, token = p.owner) {
  const res = await e.reads.listReleases({ headers: bearer(token), params: { id: p.id }, query })
  return res as EngineResponse & { body: { releases: Record<string, unknown>[] } }
}

async function release(p: Project, version: string, query: Record<string, string> = {}) {
  const res = await e.reads.getRelease({
    headers: bearer(p.owner),
    params: { id: p.id, version },
    query,
  })
  return res as EngineResponse & { body: { release: Record<string, unknown> } }
}

function envelope(header: object, items: Array<[object, object]>): Uint8Array {
  const lines = [JSON.stringify(header)]
  for (const [h, payload] of items) lines.push(JSON.stringify(h), JSON.stringify(payload))
  return new TextEncoder().encode(lines.join('\n'))
}

const sentry = (p: Project, bytes: Uint8Array) =>
  e.ingest.ingestSentry(
    {
      headers: { 'x-sentry-auth': `Sentry sentry_key=${p.key}` },
      params: { project: String(p.number) },
      bytes,
    },
    'envelope',
  )

describe('release health on the engine', () => {
  it('counts each session once, on its init, by its final status', async () => {
    const p = await project()
    const ok = [
      // Healthy: init, then exited.
      update('a', { init: true, status: 'ok', did: 'u1' }),
      update('a', { init: false, status: 'exited', did: 'u1' }),
      // Errored by a handled error, sent as exited with errors (sentry-python).
      update('b', { init: true, status: 'ok', did: 'u2' }),
      update('b', { init: false, status: 'exited', errors: 1, did: 'u2' }),
      // Unhandled (Relay: errored, not crashed), then the same sid again.
      update('c', { init: true, status: 'unhandled', errors: 1, did: 'u3' }),
      update('c', { init: false, status: 'unhandled', errors: 1, did: 'u3' }),
      // Crashed: terminal, a later `exited` changes nothing.
      update('d', { init: true, status: 'ok', did: 'u3' }),
      update('d', { init: false, status: 'crashed', errors: 1, did: 'u3' }),
      update('d', { init: false, status: 'exited', did: 'u3' }),
      // Out of order: the terminal update first, its init after it.
      update('e', { init: false, status: 'abnormal', did: 'u4' }),
      update('e', { init: true, status: 'ok', did: 'u4' }),
      // A repeat of an init (a client's retry) counts once.
      update('f', { init: true, status: 'ok' }),
      update('f', { init: true, status: 'ok' }),
      // Never initialised here: not counted.
      update('g', { init: false, status: 'crashed' }),
    ]
    for (const body of ok) {
      const res = await send(p, body)
      expect(res.status, JSON.stringify(res.body)).toBe(201)
    }
    const res = await releases(p)
    expect(res.status).toBe(200)
    expect(res.body.releases).toEqual([
      expect.objectContaining({
        version: 'shop@1.0.0',
        environment: null,
        sessions: { total: 6, healthy: 2, errored: 2, crashed: 1, abnormal: 1 },
        users: { total: 4, crashed: 1 },
        crash_free_sessions: 1 - 1 / 6,
        crash_free_users: 1 - 1 / 4,
        adoption: 1,
      }),
    ])
  })

  it('adds aggregates beside single updates and counts a replayed envelope once', async () => {
    const p = await project()
    const aggregate = {
      aggregates: [
        { started: minute(10), exited: 5, errored: 2, crashed: 1 },
        { started: minute(9), did: 'u9', exited: 1, crashed: 1 },
      ],
      attrs: { release: 'api@2.0.0', environment: 'staging' },
    }
    const body = envelope({ sent_at: new Date(NOW).toISOString() }, [
      [{ type: 'sessions' }, aggregate],
      [
        { type: 'session' },
        {
          sid: 's1',
          init: true,
          started: minute(8),
          status: 'exited',
          did: 'u8',
          attrs: { release: 'api@2.0.0', environment: 'staging' },
        },
      ],
      // Dropped, not failing the envelope: no release.
      [{ type: 'session' }, { sid: 's2', init: true, started: minute(8), attrs: {} }],
    ])
    expect((await sentry(p, body)).status).toBe(200)
    expect((await sentry(p, body)).status).toBe(200)
    const staging = await releases(p, { environment: 'staging' })
    expect(staging.body.releases).toEqual([
      expect.objectContaining({
        version: 'api@2.0.0',
        environment: 'staging',
        sessions: { total: 11, healthy: 7, errored: 2, crashed: 2, abnormal: 0 },
        users: { total: 2, crashed: 1 },
      }),
    ])
    expect((await releases(p, { environment: 'production' })).body.releases).toEqual([])
    // A session is never an issue.
    const issues = await e.reads.listIssues({ headers: bearer(p.owner), params: { id: p.id } })
    expect((issues.body as { issues: unknown[] }).issues).toEqual([])
  })

  it('answers a release with its series, new issues and deployments; 404 for one never seen', async () => {
    const p = await project()
    await send(
      p,
      update(
        'x',
        { init: true, status: 'crashed', errors: 1 },
        'web 3.1+build/7'.replace('/', '-'),
      ),
    )
    await e.ingest.ingestEvent({
      headers: bearer(p.key),
      body: { event: { event_type: 'error', message: 'boom', release: 'web 3.1+build-7' } },
    })
    await e.ingest.recordDeployment({
      headers: bearer(p.key),
      body: {
        deployment: {
          repository: 'acme/web',
          environment: 'production',
          release: 'web 3.1+build-7',
          commit_sha: 'abcdef1',
        },
      },
    })
    const res = await release(p, 'web 3.1+build-7')
    expect(res.status).toBe(200)
    const r = res.body.release
    expect(r['sessions']).toEqual({ total: 1, healthy: 0, errored: 0, crashed: 1, abnormal: 0 })
    expect(r['crash_free_sessions']).toBe(0)
    expect(r['crash_free_users']).toBeNull()
    expect(r['series']).toEqual([expect.objectContaining({ sessions: 1, crashed: 1, errored: 0 })])
    expect((r['new_issues'] as { title: string }[]).map((i) => i.title)).toEqual(['boom'])
    expect((r['deployments'] as { commit_sha: string }[]).map((d) => d.commit_sha)).toEqual([
      'abcdef1',
    ])
    expect((await release(p, 'never@0')).status).toBe(404)
    expect((await release(p, 'never@0')).body).toEqual({ error: 'Not found' })
  })

  it('lists releases without sessions, newest first, page by page', async () => {
    const p = await project()
    for (const v of ['r1', 'r2', 'r3']) {
      await e.ingest.ingestEvent({
        headers: bearer(p.key),
        body: { event: { event_type: 'log', message: 'hi', release: v } },
      })
    }
    const first = await releases(p, { limit: '2' })
    const body = first.body as unknown as { releases: { version: string }[]; next_cursor: string }
    expect(body.releases.map((r) => r.version)).toEqual(['r3', 'r2'])
    expect(first.body.releases[0]).toMatchObject({ crash_free_sessions: null, adoption: null })
    const second = await releases(p, { limit: '2', cursor: body.next_cursor })
    expect(second.body.releases.map((r) => r['version'])).toEqual(['r1'])
    expect((second.body as unknown as { next_cursor: null }).next_cursor).toBeNull()
  })

  it("refuses bad bodies with the problem named, and another project's users", async () => {
    const p = await project()
    const other = await project()
    const bad = await send(p, update('z', { status: 'sleeping' }))
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({
      errors: ['session.status must be one of ok, exited, crashed, abnormal, errored, unhandled'],
    })
    const noRelease = await send(p, { session: { sid: 'z', started: minute(1), attrs: {} } })
    expect((noRelease.body as { errors: string[] }).errors[0]).toMatch(/attrs\.release is required/)
    expect((await send(p, {})).status).toBe(400)
    expect((await send(p, { sessions: { aggregates: [], attrs: { release: 'x' } } })).status).toBe(
      422,
    )
    expect((await releases(p, { since: 'yesterday' })).status).toBe(422)
    await send(p, update('y', { init: true }))
    expect((await releases(p, {}, other.owner)).status).toBe(404)
    expect((await e.ingest.recordSessions({ headers: {}, body: update('y', {}) })).status).toBe(401)
  })
})

describe('release_crash_free_below on the engine', () => {
  it('records one notification when a release falls below, again only after it recovered', async () => {
    const p = await project()
    const channel = await e.alerts.createAlertChannel({
      headers: bearer(p.owner),
      params: { id: p.id },
      body: { name: 'hook', type: 'webhook', url: 'https://203.0.113.10/hook' },
    })
    expect(channel.status, JSON.stringify(channel.body)).toBe(201)
    const channelId = (channel.body as { alert_channel: { id: string } }).alert_channel.id
    const rule = await e.alerts.createAlertRule({
      headers: bearer(p.owner),
      params: { id: p.id },
      body: {
        name: 'crash-free',
        trigger: 'release_crash_free_below',
        threshold: 0.75,
        window_seconds: 3_600,
        channel_ids: [channelId],
      },
    })
    expect(rule.status, JSON.stringify(rule.body)).toBe(201)
    const deliveries = async () => {
      await e.settled()
      await e.runAlerts()
      const res = await e.alerts.listAlertDeliveries({
        headers: bearer(p.owner),
        params: { id: p.id },
      })
      return (res.body as { alert_deliveries: { trigger: string }[] }).alert_deliveries
    }
    const session = (sid: string, status: string) =>
      send(p, {
        session: { sid, init: true, status, started: minute(1), attrs: { release: 'm@1' } },
      })
    for (const sid of ['a', 'b', 'c']) await session(sid, 'exited')
    await session('x', 'crashed')
    expect(await deliveries()).toEqual([])
    await session('y', 'crashed')
    expect((await deliveries()).map((d) => d.trigger)).toEqual(['release_crash_free_below'])
    expect(await deliveries()).toHaveLength(1)
    // Back at 6 of 8, then below again: a second notification.
    for (const sid of ['d', 'e', 'f']) await session(sid, 'exited')
    expect(await deliveries()).toHaveLength(1)
    await session('z', 'crashed')
    await session('w', 'crashed')
    expect(await deliveries()).toHaveLength(2)
  })

  it('refuses a threshold that is no fraction and a window it cannot check', async () => {
    const p = await project()
    const res = await e.alerts.createAlertRule({
      headers: bearer(p.owner),
      params: { id: p.id },
      body: {
        name: 'x',
        trigger: 'release_crash_free_below',
        threshold: 99,
        channel_ids: ['00000000-0000-4000-8000-000000000000'],
      },
    })
    expect(res.status).toBe(422)
    expect((res.body as { errors: string[] }).errors).toEqual([
      'threshold must be a crash-free fraction between 0 and 1 (0.99 for 99%)',
      'window_seconds is required for a release_crash_free_below rule',
    ])
  })
})
