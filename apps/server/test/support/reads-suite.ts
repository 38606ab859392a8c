import {
  ADMIN_TOKEN,
  type Client,
  createClient,
  type Harness,
  unique,
} from '@tis/test-utils/server'
import { describe, expect, it } from 'vitest'
import { describeCheckInHistory } from './check-ins-suite'
import { describeIssueMerge } from './issue-merge-suite'

type Fields = Record<string, unknown>

/**
 * The read API end to end: errors ingested through the public endpoint and read back as issues
 * and events, with status changes, regressions, filters, pagination and access rules.
 */
export function describeReads(harness: () => Harness) {
  const client = () => createClient(harness().url)

  /** A project with a key and helpers to ingest into it and read it back. */
  async function setup() {
    const c = client()
    const { projectId, key } = await c.projectWithKey()
    return {
      c,
      key,
      projectId,
      async send(event: Fields) {
        const r = await c.ingest('/api/v1/ingest_events', key, { event })
        if (r.status !== 201) throw new Error(`ingest: ${r.status} ${r.text}`)
        return r.body.id as string
      },
      get(path: string, token = ADMIN_TOKEN) {
        return c.api('GET', `/api/v1/projects/${projectId}${path}`, { token })
      },
      patch(path: string, json: unknown, token = ADMIN_TOKEN) {
        return c.api('PATCH', `/api/v1/projects/${projectId}${path}`, { token, json })
      },
    }
  }
  const error = (message: string, fields: Fields = {}) => ({
    event_type: 'error',
    message,
    ...fields,
  })
  const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 12, minute)).toISOString()

  describe('issues', () => {
    it('groups by fingerprint, and by the first line of the message but not later lines', async () => {
      const s = await setup()
      await s.send(error('Timeout A', { fingerprint: 'db-down', occurred_at: at(1) }))
      await s.send(error('Timeout B', { fingerprint: 'db-down', occurred_at: at(2) }))
      await s.send(error('Boom\nat a.js:1', { occurred_at: at(3) }))
      const last = await s.send(error('Boom\nat b.js:9', { occurred_at: at(4), release: 'v2' }))
      await s.send(error('Other', { occurred_at: at(0) }))

      const r = await s.get('/issues')
      expect(r.status).toBe(200)
      expect(r.body.next_cursor).toBeNull()
      expect(r.body.issues.map((i: Fields) => [i['title'], i['count']])).toEqual([
        ['Boom', 2],
        ['Timeout A', 2],
        ['Other', 1],
      ])
      const [boom, timeout] = r.body.issues
      expect(boom).toMatchObject({
        fingerprint: null,
        level: 'error',
        status: 'unresolved',
        first_seen_at: at(3),
        last_seen_at: at(4),
        // The first release known: the first event had none.
        first_release: 'v2',
        last_release: 'v2',
        latest_event_id: last,
        regression_count: 0,
      })
      expect(timeout.fingerprint).toBe('db-down')
      const one = await s.get(`/issues/${boom.id}`)
      expect(one.status).toBe(200)
      expect(one.body.issue).toEqual(boom)
    })

    it('resolve → new occurrence reopens with a regression; ignored keeps counting', async () => {
      const s = await setup()
      await s.send(error('Regressing', { release: 'v1', occurred_at: at(1) }))
      await s.send(error('Muted', { release: 'v1', occurred_at: at(1) }))
      const issues = (await s.get('/issues')).body.issues as Fields[]
      const regressing = issues.find((i) => i['title'] === 'Regressing')!
      const muted = issues.find((i) => i['title'] === 'Muted')!

      const resolved = await s.patch(`/issues/${regressing['id']}`, {
        issue: { status: 'resolved' },
      })
      expect(resolved.status).toBe(200)
      expect(resolved.body.issue.status).toBe('resolved')
      expect(
        (await s.patch(`/issues/${muted['id']}`, { issue: { status: 'ignored' } })).status,
      ).toBe(200)
      expect((await s.get('/issues')).body.issues).toEqual([])
      expect((await s.get('/issues?status=resolved')).body.issues).toHaveLength(1)

      await s.send(error('Regressing', { release: 'v2', occurred_at: at(2) }))
      await s.send(error('Muted', { release: 'v2', occurred_at: at(2) }))
      const reopened = (await s.get(`/issues/${regressing['id']}`)).body.issue
      expect(reopened).toMatchObject({
        status: 'unresolved',
        count: 2,
        regression_count: 1,
        regressed_in_release: 'v2',
        last_release: 'v2',
      })
      const stillMuted = (await s.get(`/issues/${muted['id']}`)).body.issue
      expect(stillMuted).toMatchObject({ status: 'ignored', count: 2, regression_count: 0 })
      expect((await s.get('/issues?status=ignored')).body.issues).toEqual([stillMuted])

      // Reopened by hand: no regression is counted.
      await s.patch(`/issues/${muted['id']}`, { issue: { status: 'unresolved' } })
      expect((await s.get(`/issues/${muted['id']}`)).body.issue).toMatchObject({
        status: 'unresolved',
        regression_count: 0,
      })
    })

    it('filters by environment, release and title text', async () => {
      const s = await setup()
      await s.send(error('Alpha 100%', { environment: 'staging', release: 'r1' }))
      await s.send(error('Beta', { environment: 'production', release: 'r2' }))
      const titles = async (query: string) =>
        (await s.get(`/issues?${query}`)).body.issues.map((i: Fields) => i['title'])
      expect(await titles('environment=staging')).toEqual(['Alpha 100%'])
      expect(await titles('release=r2')).toEqual(['Beta'])
      expect(await titles('q=alpha')).toEqual(['Alpha 100%'])
      expect(await titles('q=0%25')).toEqual(['Alpha 100%'])
      expect(await titles('q=_')).toEqual([])
      expect(await titles('status=all&environment=nowhere')).toEqual([])
    })

    it('searches with query= and orders with sort=, paging each order; 400 names a bad term', async () => {
      const s = await setup()
      await s.send(error('Gamma timeout', { level: 'warning', release: 'r1', occurred_at: at(1) }))
      for (const minute of [2, 3, 4]) {
        await s.send(error('Delta crash', { release: 'r2', user_id: 7, occurred_at: at(minute) }))
      }
      for (const [minute, user_id] of [
        [5, 8],
        [6, 9],
      ] as const) {
        await s.send(
          error('Epsilon crash', { environment: 'staging eu', user_id, occurred_at: at(minute) }),
        )
      }
      const titles = async (query: string) => {
        const r = await s.get(`/issues?${query}`)
        expect(r.status).toBe(200)
        return r.body.issues.map((i: Fields) => i['title'])
      }
      const q = (text: string) => `query=${encodeURIComponent(text)}`
      expect(await titles(q('crash !environment:"staging eu"'))).toEqual(['Delta crash'])
      expect(await titles(q('level:warning release:[r1,r9]'))).toEqual(['Gamma timeout'])
      expect(await titles(q('user.id:7 times_seen:>2'))).toEqual(['Delta crash'])
      expect(await titles(`${q('crash')}&sort=first_seen`)).toEqual([
        'Epsilon crash',
        'Delta crash',
      ])
      const delta = (await s.get(`/issues?${q('delta')}`)).body.issues[0]
      await s.patch(`/issues/${delta.id}`, { issue: { status: 'resolved' } })
      // `status` defaults to unresolved unless the query names a status; given with one, both hold.
      expect(await titles(q('crash'))).toEqual(['Epsilon crash'])
      expect(await titles(q('is:resolved'))).toEqual(['Delta crash'])
      expect(await titles(`${q('is:resolved')}&status=unresolved`)).toEqual([])

      // Every order pages with its own cursors: no duplicates, no gaps.
      for (const sort of ['last_seen', 'first_seen', 'times_seen', 'users']) {
        const seen: string[] = []
        let cursor: string | null = ''
        while (cursor !== null) {
          const r = await s.get(
            `/issues?status=all&sort=${sort}&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
          )
          expect(r.status).toBe(200)
          seen.push(...r.body.issues.map((i: Fields) => i['title']))
          cursor = r.body.next_cursor
        }
        expect(seen).toEqual(await titles(`status=all&sort=${sort}&limit=10`))
        expect(seen).toHaveLength(3)
      }
      expect(await titles('status=all&sort=times_seen')).toEqual([
        'Delta crash',
        'Epsilon crash',
        'Gamma timeout',
      ])
      const timesCursor = (await s.get('/issues?status=all&sort=times_seen&limit=1')).body
        .next_cursor
      const mixed = await s.get(`/issues?status=all&cursor=${timesCursor}`)
      expect(mixed.status).toBe(422)
      expect(mixed.body.errors).toEqual(['cursor is not a cursor of this list in sort=last_seen'])
      // Affected users: distinct user ids, whatever the number of events.
      const byUsers = (await s.get('/issues?status=all&sort=users')).body.issues
      expect(byUsers.map((i: Fields) => [i['title'], i['users'], i['count']])).toEqual([
        ['Epsilon crash', 2, 2],
        ['Delta crash', 1, 3],
        ['Gamma timeout', 0, 1],
      ])
      expect(await titles(`status=all&${q('users:>=2')}`)).toEqual(['Epsilon crash'])
      expect(await titles(`status=all&${q('!users:0 times_seen:<3')}`)).toEqual(['Epsilon crash'])

      for (const [text, message] of [
        ['foo:bar', 'query has an unknown key "foo" in foo:bar'],
        ['is:open', 'query has an unknown value "open" in is:open'],
        ['release:"r1', 'query has an unclosed quote: release:"r1'],
        ['assigned:nobody@tis.test', 'query names no user in assigned:nobody@tis.test'],
      ]) {
        const r = await s.get(`/issues?${q(text!)}`)
        expect(r.status).toBe(400)
        expect(r.body.error).toContain(message)
      }
      const events = await s.get(`/events?${q('crash timestamp:>=2026-06-01T12:05:00Z')}`)
      expect(events.body.events.map((e: Fields) => e['occurred_at'])).toEqual([at(6), at(5)])
      expect((await s.get(`/events?${q('is:resolved')}`)).status).toBe(400)
    })

    it('pages with keyset cursors: no duplicates or gaps, ties on last_seen_at broken by id', async () => {
      const s = await setup()
      for (let n = 0; n < 7; n++) {
        await s.send(error(`Page ${n}`, { occurred_at: at(n % 3) }))
      }
      const seen: Fields[] = []
      let cursor: string | null = ''
      let pages = 0
      while (cursor !== null) {
        const query: string = cursor ? `&cursor=${cursor}` : ''
        const r = await s.get(`/issues?limit=3${query}`)
        expect(r.status).toBe(200)
        seen.push(...r.body.issues)
        cursor = r.body.next_cursor
        if (cursor !== null) expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
        pages += 1
      }
      expect(pages).toBe(3)
      const all = (await s.get('/issues?limit=200')).body.issues
      expect(seen).toEqual(all)
      expect(new Set(seen.map((i) => i['id'])).size).toBe(7)
    })

    it('adds 24 hourly counts per issue with sparkline=24h, 422 for another value', async () => {
      const s = await setup()
      // The server's clock, which earlier tests may have moved ahead of real time.
      const clock = () => harness().now().getTime()
      const now = clock()
      const hour = 3_600_000
      const times = [now - 60_000, now - 2 * hour, now - 2 * hour + 1000, now - 30 * hour]
      for (const t of times) {
        await s.send(error('Sparkling', { occurred_at: new Date(t).toISOString() }))
      }
      await s.send(error('Quiet', { occurred_at: new Date(now - 40 * hour).toISOString() }))
      // The window: 24 whole UTC hours, the last being the server's current one — read again if
      // an hour boundary passed during the request.
      let r: Awaited<ReturnType<typeof s.get>>
      let currentHour: number
      do {
        currentHour = Math.floor(clock() / hour)
        r = await s.get('/issues?sparkline=24h')
      } while (Math.floor(clock() / hour) !== currentHour)
      const since = (currentHour + 1) * hour - 24 * hour
      const expected = new Array<number>(24).fill(0)
      for (const t of times) {
        const k = Math.floor((t - since) / hour)
        if (k >= 0 && k < 24) expected[k]! += 1
      }
      expect(r.status).toBe(200)
      const by = (title: string) => r.body.issues.find((i: Fields) => i['title'] === title)
      expect(by('Sparkling').sparkline).toEqual(expected)
      expect(expected.reduce((a, b) => a + b, 0)).toBe(3)
      expect(by('Quiet').sparkline).toEqual(new Array(24).fill(0))
      const plain = await s.get('/issues')
      expect(plain.body.issues[0]).not.toHaveProperty('sparkline')
      const bad = await s.get('/issues?sparkline=7d')
      expect(bad.status).toBe(422)
      expect(bad.body.errors).toEqual(['sparkline must be 24h'])
    })

    it('PATCH answers 422 for an unknown status and 404 for an unknown issue', async () => {
      const s = await setup()
      await s.send(error('Patchable'))
      const [issue] = (await s.get('/issues')).body.issues
      const bad = await s.patch(`/issues/${issue.id}`, { issue: { status: 'done' } })
      expect(bad.status).toBe(422)
      expect(bad.body.errors[0]).toContain('status')
      const missing = await s.patch('/issues/00000000-0000-4000-8000-000000000000', {
        issue: { status: 'resolved' },
      })
      expect(missing.status).toBe(404)
      expect((await s.get('/issues/not-a-uuid')).status).toBe(404)
    })
  })

  describe('events', () => {
    it('lists events newest first with their issue, filtered and paged', async () => {
      const s = await setup()
      const ids: string[] = []
      ids.push(await s.send(error('E1', { occurred_at: at(1), trace_id: 't-1', level: 'fatal' })))
      ids.push(
        await s.send({
          event_type: 'log',
          message: 'L2',
          occurred_at: at(2),
          request_id: 'req-2',
          session_id: 's-2',
          user_id: 'u-2',
          environment: 'staging',
          release: 'v9',
          context: { path: '/x' },
        }),
      )
      ids.push(await s.send(error('E1', { occurred_at: at(3) })))
      ids.push(await s.send({ event_type: 'log', message: 'L4', occurred_at: at(3) }))

      const all = await s.get('/events')
      expect(all.status).toBe(200)
      const byId = (id: string) => all.body.events.find((e: Fields) => e['id'] === id)
      expect(all.body.events.map((e: Fields) => e['id']).sort()).toEqual([...ids].sort())
      expect(all.body.events.map((e: Fields) => e['occurred_at'])).toEqual([
        at(3),
        at(3),
        at(2),
        at(1),
      ])
      expect(byId(ids[1]!)).toMatchObject({
        event_type: 'log',
        message: 'L2',
        context: { path: '/x' },
        issue_id: null,
      })
      expect(Number.isSafeInteger(byId(ids[1]!).legacy_id)).toBe(true)
      const issueId = byId(ids[0]!).issue_id
      expect(issueId).toBe(byId(ids[2]!).issue_id)

      const found = async (query: string) =>
        (await s.get(`/events?${query}`)).body.events.map((e: Fields) => e['id']).sort()
      expect(await found('event_type=error')).toEqual([ids[0], ids[2]].sort())
      expect(await found('level=fatal')).toEqual([ids[0]])
      expect(await found('trace_id=t-1')).toEqual([ids[0]])
      expect(await found('request_id=req-2')).toEqual([ids[1]])
      expect(await found('session_id=s-2&user_id=u-2')).toEqual([ids[1]])
      expect(await found('environment=staging&release=v9')).toEqual([ids[1]])
      expect(await found(`issue_id=${issueId}`)).toEqual([ids[0], ids[2]].sort())
      expect(await found('q=l2')).toEqual([ids[1]])
      expect(await found(`since=${at(2)}&until=${at(3)}`)).toEqual([ids[1]])

      const paged: string[] = []
      let cursor: string | null = ''
      while (cursor !== null) {
        const query: string = cursor ? `&cursor=${cursor}` : ''
        const r = await s.get(`/events?limit=1${query}`)
        paged.push(...r.body.events.map((e: Fields) => e['id']))
        cursor = r.body.next_cursor
      }
      expect(paged).toEqual(all.body.events.map((e: Fields) => e['id']))
    })

    it.each([
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['event_type=nope', 'event_type'],
      ['since=yesterday', 'since'],
      ['issue_id=42', 'issue_id'],
      ['cursor=not-ours', 'cursor'],
      ['q=', 'q'],
    ])('answers 422 naming the parameter for %s', async (query, name) => {
      const s = await setup()
      const r = await s.get(`/events?${query}`)
      expect(r.status).toBe(422)
      expect(r.body.errors.join(' ')).toContain(name)
    })

    it('caps limit at 200 and rejects a bad issue status filter', async () => {
      const s = await setup()
      expect((await s.get('/events?limit=100000')).status).toBe(200)
      const r = await s.get('/issues?status=open')
      expect(r.status).toBe(422)
      expect(r.body.errors[0]).toMatch(/^status /)
    })
  })

  describe('monitors', () => {
    it('computes ok → error → ok and missed at read time with the server clock', async () => {
      const s = await setup()
      const h = harness()
      const checkIn = async (fields: Fields) => {
        const r = await s.c.ingest('/api/v1/check_ins', s.key, { check_in: fields })
        if (r.status !== 201) throw new Error(`check-in: ${r.status} ${r.text}`)
      }
      const monitor = async (slug: string) => {
        const r = await s.get('/monitors')
        expect(r.status).toBe(200)
        return (r.body.monitors as Fields[]).find((m) => m['slug'] === slug)!
      }
      const base = { slug: 'backup', environment: 'prod', expected_interval_seconds: 120 }
      await checkIn({ ...base, status: 'ok' })
      const ok = await monitor('backup')
      expect(ok).toMatchObject({
        status: 'ok',
        health: 'ok',
        last_status: 'ok',
        expected_interval_seconds: 120,
      })
      const last = Date.parse(ok['last_check_in_at'] as string)
      expect(ok['next_expected_at']).toBe(new Date(last + 120_000).toISOString())
      expect(ok['missed_after']).toBe(new Date(last + 180_000).toISOString())

      await checkIn({ ...base, status: 'error' })
      expect(await monitor('backup')).toMatchObject({ status: 'error', last_status: 'error' })
      // A status other than ok/error leaves the health (error) as it is.
      await checkIn({ ...base, status: 'in_progress' })
      expect(await monitor('backup')).toMatchObject({
        status: 'error',
        last_status: 'in_progress',
      })
      await checkIn({ ...base, status: 'ok' })
      expect(await monitor('backup')).toMatchObject({ status: 'ok', health: 'ok' })

      // Missed: past interval + grace (max(60 s, 30 s)) without a check-in.
      await checkIn({ slug: 'short', environment: 'prod', expected_interval_seconds: 40 })
      await checkIn({ slug: 'pending', status: 'in_progress', expected_interval_seconds: 600 })
      await checkIn({ slug: 'broken', status: 'error', expected_interval_seconds: 40 })
      expect(await monitor('pending')).toMatchObject({ status: 'ok', health: null })
      h.advance(65) // short: 40 + 30 grace = 70 s → not yet missed
      expect((await monitor('short'))['status']).toBe('ok')
      h.advance(190) // backup: 120 + 60 grace = 180 s → missed
      expect((await monitor('short'))['status']).toBe('missed')
      expect((await monitor('backup'))['status']).toBe('missed')
      // An error monitor past its deadline stays error; unknown health can be missed.
      expect((await monitor('broken'))['status']).toBe('error')
      expect((await monitor('pending'))['status']).toBe('ok')
      h.advance(700)
      expect((await monitor('pending'))['status']).toBe('missed')
      // A new check-in makes it ok again.
      await checkIn({ ...base, status: 'ok' })
      expect((await monitor('backup'))['status']).toBe('ok')

      const envs = (await s.get('/monitors?environment=prod')).body.monitors as Fields[]
      expect(envs.map((m) => m['slug']).sort()).toEqual(['backup', 'short'])
      const paged: string[] = []
      let cursor: string | null = ''
      while (cursor !== null) {
        const query: string = cursor ? `&cursor=${cursor}` : ''
        const r = await s.get(`/monitors?limit=1${query}`)
        paged.push(...r.body.monitors.map((m: Fields) => m['id']))
        cursor = r.body.next_cursor
      }
      expect(paged).toEqual((await s.get('/monitors')).body.monitors.map((m: Fields) => m['id']))
      expect(paged).toHaveLength(4)
      const bad = await s.get('/monitors?limit=0')
      expect(bad.status).toBe(422)
      expect(bad.body.errors.join(' ')).toContain('limit')
    })
  })

  describe('check-in history', () => describeCheckInHistory(harness))

  describe('deployments', () => {
    const sha = (n: number) => String(n).repeat(40).slice(0, 40)
    const deploy = async (s: Awaited<ReturnType<typeof setup>>, fields: Fields) => {
      const r = await s.c.ingest('/api/v1/deployments', s.key, { deployment: fields })
      if (r.status !== 201 && r.status !== 200) throw new Error(`deploy: ${r.status} ${r.text}`)
    }

    it('lists deployments newest first with their links, filtered and paged', async () => {
      const s = await setup()
      const full = {
        repository: 'acme/shop',
        environment: 'production',
        release: 'v2',
        commit_sha: sha(2),
        branch: 'main',
        release_tag: 'v2.0.0',
        deployed_at: at(20),
        pull_request_url: 'https://github.com/acme/shop/pull/7',
        release_url: 'https://github.com/acme/shop/releases/tag/v2.0.0',
        compare_url: 'https://github.com/acme/shop/compare/v1...v2',
        workflow_run_url: 'https://github.com/acme/shop/actions/runs/1',
        deployment_url: 'https://shop.example.com',
      }
      await deploy(s, full)
      await deploy(s, { ...full, release: 'v1', commit_sha: sha(1), deployed_at: at(10) })
      await deploy(s, {
        repository: 'acme/api',
        environment: 'staging',
        release: 'v3',
        commit_sha: sha(3),
        deployed_at: at(30),
      })
      await deploy(s, { ...full, release: 'v1b', commit_sha: sha(4), deployed_at: at(10) })

      const r = await s.get('/deployments')
      expect(r.status).toBe(200)
      expect(r.body.next_cursor).toBeNull()
      const rows = r.body.deployments as Fields[]
      expect(rows.map((d) => d['release']).slice(0, 2)).toEqual(['v3', 'v2'])
      // The tie on deployed_at is broken by id, descending.
      expect(
        rows
          .slice(2)
          .map((d) => d['release'])
          .sort(),
      ).toEqual(['v1', 'v1b'])
      expect(String(rows[2]!['id']) > String(rows[3]!['id'])).toBe(true)
      expect(rows[1]).toMatchObject({
        ...full,
        deployed_at: at(20),
        pull_request_number: null,
        source: 'api',
      })
      expect(rows[0]).toMatchObject({ branch: null, pull_request_url: null, release_tag: null })

      const releases = async (query: string) =>
        (await s.get(`/deployments?${query}`)).body.deployments.map((d: Fields) => d['release'])
      expect(await releases('environment=staging')).toEqual(['v3'])
      expect(await releases('repository=acme/shop&release=v1')).toEqual(['v1'])
      expect(await releases('release=nope')).toEqual([])

      const paged: string[] = []
      let cursor: string | null = ''
      while (cursor !== null) {
        const query: string = cursor ? `&cursor=${cursor}` : ''
        const page = await s.get(`/deployments?limit=1${query}`)
        paged.push(...page.body.deployments.map((d: Fields) => d['id']))
        cursor = page.body.next_cursor
      }
      expect(paged).toEqual(rows.map((d) => d['id']))
      const bad = await s.get('/deployments?repository=')
      expect(bad.status).toBe(422)
      expect(bad.body.errors.join(' ')).toContain('repository')
    })
  })

  describe('event detail', () => {
    const sha = (n: number) => String(n).repeat(40).slice(0, 40)

    it('shows the event with its issue, deployment and related events', async () => {
      const s = await setup()
      const deploy = async (fields: Fields) => {
        const r = await s.c.ingest('/api/v1/deployments', s.key, {
          deployment: { repository: 'acme/shop', ...fields },
        })
        if (r.status !== 201) throw new Error(`deploy: ${r.status} ${r.text}`)
      }
      await deploy({
        environment: 'production',
        release: 'v1',
        commit_sha: sha(1),
        deployed_at: at(10),
      })
      await deploy({
        environment: 'production',
        release: 'v2',
        commit_sha: sha(2),
        branch: 'main',
        deployed_at: at(20),
        pull_request_url: 'https://github.com/acme/shop/pull/2',
      })
      await deploy({
        environment: 'staging',
        release: 'v2',
        commit_sha: sha(3),
        deployed_at: at(16),
      })

      const prod = { environment: 'production' }
      const a = await s.send(
        error('Boom', {
          ...prod,
          release: 'v1',
          occurred_at: at(25),
          trace_id: 'tr-1',
          request_id: 'rq-1',
          session_id: 'ss-1',
        }),
      )
      const b = await s.send(
        error('Other', { ...prod, release: 'v9', occurred_at: at(15), trace_id: 'tr-1' }),
      )
      const c = await s.send({
        event_type: 'log',
        message: 'L',
        ...prod,
        occurred_at: at(21),
        request_id: 'rq-1',
      })
      const d = await s.send({
        event_type: 'log',
        message: 'Q',
        environment: 'qa',
        occurred_at: at(22),
        session_id: 'ss-1',
      })
      await s.send(error('Unrelated', { ...prod, occurred_at: at(23), trace_id: 'tr-2' }))
      const e = await s.send(
        error('Elsewhere', {
          ...prod,
          release: 'v2',
          repository: 'acme/other',
          occurred_at: at(30),
        }),
      )

      const r = await s.get(`/events/${a}`)
      expect(r.status).toBe(200)
      expect(r.body.event).toMatchObject({
        id: a,
        message: 'Boom',
        environment: 'production',
        release: 'v1',
        trace_id: 'tr-1',
      })
      expect(r.body.issue).toMatchObject({ id: r.body.event.issue_id, title: 'Boom', count: 1 })
      // The deployment of its release, although v2 was deployed later.
      expect(r.body.deployment).toMatchObject({ release: 'v1', commit_sha: sha(1), branch: null })
      // Sharing trace_id, request_id or session_id (any environment), newest first, not itself.
      expect(r.body.related.map((x: Fields) => x['id'])).toEqual([d, c, b])

      // Unknown release: the newest deployed at or before the event in its environment.
      const other = (await s.get(`/events/${b}`)).body
      expect(other.deployment).toMatchObject({ release: 'v1', environment: 'production' })
      expect(other.related.map((x: Fields) => x['id'])).toEqual([a])
      const log = (await s.get(`/events/${c}`)).body
      expect(log.issue).toBeNull()
      expect(log.deployment).toMatchObject({
        release: 'v2',
        commit_sha: sha(2),
        branch: 'main',
        pull_request_url: 'https://github.com/acme/shop/pull/2',
      })
      expect((await s.get(`/events/${d}`)).body.deployment).toBeNull()
      // An event naming a repository only matches that repository's deployments.
      expect((await s.get(`/events/${e}`)).body).toMatchObject({ deployment: null, related: [] })

      expect((await s.get('/events/00000000-0000-4000-8000-000000000000')).status).toBe(404)
      expect((await s.get('/events/nope')).status).toBe(404)
      const stranger = await setup()
      expect((await stranger.get(`/events/${a}`)).status).toBe(404)
    })

    it('shows at most 20 related events', async () => {
      const s = await setup()
      const first = await s.send(error('Traced', { trace_id: 'many', occurred_at: at(0) }))
      for (let n = 1; n <= 21; n++) {
        await s.send(error('Traced', { trace_id: 'many', occurred_at: at(n) }))
      }
      const related = (await s.get(`/events/${first}`)).body.related as Fields[]
      expect(related).toHaveLength(20)
      expect(related[0]!['occurred_at']).toBe(at(21))
      expect(related.map((x) => x['id'])).not.toContain(first)
    })
  })

  describe('access', () => {
    describeIssueMerge(harness)

    it('owner and member see the project; others get 404; no token gets 401', async () => {
      const c: Client = client()
      const owner = await c.createUser()
      const member = await c.createUser()
      const stranger = await c.createUser()
      const project = await c.createProject(owner.token)
      await c.api('POST', `/api/v1/projects/${project.id}/members`, {
        token: owner.token,
        json: { member: { email: member.email } },
      })
      const path = `/api/v1/projects/${project.id}`
      for (const suffix of ['/issues', '/events', '/monitors', '/deployments']) {
        for (const token of [owner.token, member.token, ADMIN_TOKEN]) {
          expect((await c.api('GET', `${path}${suffix}`, { token })).status).toBe(200)
        }
        const hidden = await c.api('GET', `${path}${suffix}`, { token: stranger.token })
        expect(hidden.status).toBe(404)
        expect((await c.api('GET', `${path}${suffix}`)).status).toBe(401)
      }
      const patch = await c.api('PATCH', `${path}/issues/${unique('x')}`, {
        token: stranger.token,
        json: { issue: { status: 'resolved' } },
      })
      expect(patch.status).toBe(404)
    })

    it('assigns issues to members only, both fields checked before either is written; searches by assignee', async () => {
      const c: Client = client()
      const [owner, member, stranger] = [
        await c.createUser(),
        await c.createUser(),
        await c.createUser(),
      ]
      const project = await c.createProject(owner.token)
      await c.api('POST', `/api/v1/projects/${project.id}/members`, {
        token: owner.token,
        json: { member: { email: member.email } },
      })
      const key = await c.createKey(project.id, owner.token)
      for (const message of ['Assigned one', 'Left alone']) {
        const sent = await c.ingest('/api/v1/ingest_events', key.token, { event: error(message) })
        expect(sent.status).toBe(201)
      }
      const path = `/api/v1/projects/${project.id}/issues`
      const titles = async (query: string, token = owner.token) => {
        const r = await c.api('GET', `${path}?query=${encodeURIComponent(query)}`, { token })
        expect(r.status).toBe(200)
        return r.body.issues.map((i: Fields) => i['title'])
      }
      const [one] = (await c.api('GET', `${path}?q=Assigned`, { token: owner.token })).body.issues
      expect(one.assignee).toBeNull()
      const patch = (json: unknown, token = owner.token) =>
        c.api('PATCH', `${path}/${one.id}`, { token, json })

      const assigned = await patch({ issue: { assignee: member.email.toUpperCase() } })
      expect(assigned.status).toBe(200)
      expect(assigned.body.issue).toMatchObject({ assignee: member.email, status: 'unresolved' })
      const notMember = 'issue.assignee must be the email of a member of this project'
      for (const [body, errors] of [
        [{ issue: { assignee: stranger.email } }, [notMember]],
        [{ issue: { assignee: 'nobody@tis.test' } }, [notMember]],
        [{ issue: { assignee: 7 } }, [`${notMember}, or null`]],
        [
          { issue: { status: 'closed', assignee: owner.email } },
          ['issue.status must be one of unresolved, resolved, ignored'],
        ],
      ] as const) {
        const refused = await patch(body)
        expect(refused.status).toBe(422)
        expect(refused.body.errors).toEqual(errors)
      }
      // Nothing of a refused change was written.
      const kept = await c.api('GET', `${path}/${one.id}`, { token: owner.token })
      expect(kept.body.issue).toMatchObject({ assignee: member.email, status: 'unresolved' })
      // Another project's user cannot see, so cannot assign: 404, not 422.
      expect((await patch({ issue: { assignee: stranger.email } }, stranger.token)).status).toBe(
        404,
      )

      expect(await titles('assigned:me', member.token)).toEqual(['Assigned one'])
      expect(await titles('assigned:me')).toEqual([])
      expect(await titles('!assigned:me', member.token)).toEqual(['Left alone'])
      expect(await titles(`assigned:${member.email}`)).toEqual(['Assigned one'])
      expect(await titles(`assigned:[none,${owner.email}]`)).toEqual(['Left alone'])
      expect(await titles('is:assigned')).toEqual(['Assigned one'])
      expect(await titles('is:unassigned')).toEqual(['Left alone'])
      // A member may assign too, the owner included; null unassigns, with a status at once.
      const mine = await patch({ issue: { assignee: owner.email } }, member.token)
      expect(mine.body.issue.assignee).toBe(owner.email)
      const both = await patch({ issue: { status: 'resolved', assignee: null } })
      expect(both.body.issue).toMatchObject({ status: 'resolved', assignee: null })
      expect(await titles('is:assigned')).toEqual([])
    })

    it('ignores an issue until a condition the projection meets, refusing conditions it cannot use', async () => {
      const s = await setup()
      await s.send(error('Snoozed', { fingerprint: 'snooze' }))
      const [issue] = (await s.get('/issues')).body.issues
      const ignore = (ignore_until: unknown, status = 'ignored') =>
        s.patch(`/issues/${issue.id}`, { issue: { status, ignore_until } })
      const prefix = 'issue.ignore_until '
      const shapes =
        'must be {"count": N}, {"count": N, "window_seconds": S}, {"users": N} or {"until": "<RFC 3339 time>"}'
      for (const [condition, status, message] of [
        [{ count: 2 }, 'resolved', `${prefix}needs "status": "ignored" beside it`],
        [{ count: 0 }, 'ignored', `${prefix}count must be a whole number from 1 to 1,000,000,000`],
        [
          { count: 2, window_seconds: 30 },
          'ignored',
          `${prefix}window_seconds must be a whole number of seconds from 60 to 2,592,000 (30 days)`,
        ],
        [
          { users: 1.5 },
          'ignored',
          `${prefix}users must be a whole number from 1 to 1,000,000,000`,
        ],
        [{ until: '2020-01-01T00:00:00Z' }, 'ignored', `${prefix}until must be in the future`],
        [{ until: 'tomorrow' }, 'ignored', `${prefix}until must be an RFC 3339 time`],
        [{ count: 1, users: 1 }, 'ignored', `${prefix}${shapes}`],
        ['soon', 'ignored', `${prefix}${shapes}`],
      ] as const) {
        const refused = await ignore(condition, status)
        expect(refused.status).toBe(422)
        expect(refused.body.errors).toEqual([message])
      }
      expect((await s.get(`/issues/${issue.id}`)).body.issue).toMatchObject({
        status: 'unresolved',
        ignore_until: null,
      })
      const ignored = await ignore({ count: 2 })
      expect(ignored.status).toBe(200)
      expect(ignored.body.issue).toMatchObject({ status: 'ignored', ignore_until: { count: 2 } })
      await s.send(error('Snoozed', { fingerprint: 'snooze' }))
      expect((await s.get(`/issues/${issue.id}`)).body.issue.status).toBe('ignored')
      await s.send(error('Snoozed', { fingerprint: 'snooze' }))
      expect((await s.get(`/issues/${issue.id}`)).body.issue).toMatchObject({
        status: 'unresolved',
        ignore_until: null,
        regression_count: 1,
        count: 3,
      })
      const activity = (await s.get(`/issues/${issue.id}/activity`)).body.activity as Fields[]
      expect(activity.map((a) => [a['kind'], a['actor'], a['data']]).slice(-1)).toEqual([
        ['ignore_met', null, { condition: { count: 2 } }],
      ])
      const until = new Date(Date.now() + 86_400_000).toISOString()
      expect((await ignore({ until })).body.issue.ignore_until).toEqual({ until })
    })

    it('changes many issues at once by ids or by a search, all or nothing, within the cap', async () => {
      const s = await setup()
      for (const [message, level] of [
        ['Bulk A', 'error'],
        ['Bulk B', 'error'],
        ['Bulk C', 'warning'],
      ] as const) {
        await s.send(error(message, { level }))
      }
      const all = (await s.get('/issues?status=all')).body.issues as Fields[]
      const id = (title: string) => all.find((i) => i['title'] === title)!['id'] as string
      const bulk = (json: unknown) =>
        s.c.api('PATCH', `/api/v1/projects/${s.projectId}/issues`, {
          token: ADMIN_TOKEN,
          json,
        })
      const byIds = await bulk({
        issues: { ids: [id('Bulk A'), id('Bulk B')] },
        update: { status: 'resolved' },
      })
      expect(byIds.status).toBe(200)
      expect(byIds.body).toEqual({ matched: 2, changed: 2 })
      // Already resolved: matched, not changed.
      expect(
        (await bulk({ issues: { ids: [id('Bulk A')] }, update: { status: 'resolved' } })).body,
      ).toEqual({
        matched: 1,
        changed: 0,
      })
      const byQuery = await bulk({
        issues: { query: 'level:warning' },
        update: { status: 'ignored' },
      })
      expect(byQuery.body).toEqual({ matched: 1, changed: 1 })
      const statuses = async () =>
        Object.fromEntries(
          ((await s.get('/issues?status=all')).body.issues as Fields[]).map((i) => [
            i['title'],
            i['status'],
          ]),
        )
      expect(await statuses()).toEqual({
        'Bulk A': 'resolved',
        'Bulk B': 'resolved',
        'Bulk C': 'ignored',
      })
      // A search names unresolved issues unless it says otherwise.
      expect(
        (await bulk({ issues: { query: 'bulk' }, update: { status: 'unresolved' } })).body,
      ).toEqual({
        matched: 0,
        changed: 0,
      })
      expect(
        (
          await bulk({
            issues: { query: 'is:[resolved,ignored] bulk' },
            update: { status: 'unresolved' },
          })
        ).body,
      ).toEqual({ matched: 3, changed: 3 })
      for (const [body, status, message] of [
        [
          { issues: { ids: [] }, update: { status: 'resolved' } },
          422,
          'issues.ids must be an array of 1 to 1,000 issue ids',
        ],
        [
          { issues: { ids: Array(1001).fill(id('Bulk A')) }, update: { status: 'resolved' } },
          422,
          'issues.ids must be an array of 1 to 1,000 issue ids',
        ],
        [
          { issues: { ids: ['nope'] }, update: { status: 'resolved' } },
          422,
          'issues.ids has "nope", which is not an issue id',
        ],
        [
          { issues: { ids: [id('Bulk A')], query: 'x' }, update: { status: 'resolved' } },
          422,
          'issues must have either ids or query',
        ],
        [
          { issues: { ids: [id('Bulk A')] }, update: { status: 'closed' } },
          422,
          'update.status must be one of unresolved, resolved, ignored',
        ],
        [
          { issues: { ids: [id('Bulk A')] }, update: { status: 'resolved', colour: 'red' } },
          422,
          'update.colour is not a permitted property',
        ],
        [
          { issues: { ids: [id('Bulk A')] }, update: { assignee: 'nobody@tis.test' } },
          422,
          'update.assignee must be the email of a member of this project',
        ],
        [
          { issues: { ids: [id('Bulk A')] }, update: { status: 'resolved' }, extra: 1 },
          422,
          'extra is not a permitted property (the body takes issues and update)',
        ],
        [
          { issues: { query: 'browser:chrome' }, update: { status: 'resolved' } },
          400,
          'query has an unknown key "browser"',
        ],
      ] as const) {
        const refused = await bulk(body)
        expect(refused.status).toBe(status)
        expect([...(refused.body.errors ?? []), refused.body.error].join('\n')).toContain(message)
      }
      expect((await bulk({ update: { status: 'resolved' } })).status).toBe(400)
      expect((await bulk({ issues: { ids: [id('Bulk A')] } })).status).toBe(400)
      // Nothing refused was written.
      expect(await statuses()).toEqual({
        'Bulk A': 'unresolved',
        'Bulk B': 'unresolved',
        'Bulk C': 'unresolved',
      })
    })

    it('comments on an issue, deletes by author or owner only, and keeps every change in its activity', async () => {
      const c: Client = client()
      const [owner, member, other, stranger] = [
        await c.createUser(),
        await c.createUser(),
        await c.createUser(),
        await c.createUser(),
      ]
      const project = await c.createProject(owner.token)
      for (const user of [member, other]) {
        await c.api('POST', `/api/v1/projects/${project.id}/members`, {
          token: owner.token,
          json: { member: { email: user.email } },
        })
      }
      const key = await c.createKey(project.id, owner.token)
      expect(
        (await c.ingest('/api/v1/ingest_events', key.token, { event: error('Discussed') })).status,
      ).toBe(201)
      const [issue] = (
        await c.api('GET', `/api/v1/projects/${project.id}/issues`, { token: owner.token })
      ).body.issues
      const path = `/api/v1/projects/${project.id}/issues/${issue.id}`
      const comment = (body: unknown, token = member.token) =>
        c.api('POST', `${path}/comments`, { token, json: { comment: { body } } })

      const first = await comment('Looks like **the cache**: <script>alert(1)</script>')
      expect(first.status).toBe(201)
      expect(first.body.comment).toMatchObject({
        issue_id: issue.id,
        author: member.email,
        body: 'Looks like **the cache**: <script>alert(1)</script>',
      })
      const second = await comment('Second', owner.token)
      for (const [body, status] of [
        ['   ', 422],
        ['x'.repeat(10_001), 422],
        [7, 422],
      ] as const) {
        const refused = await comment(body)
        expect(refused.status).toBe(status)
        expect(refused.body.errors).toEqual([
          'comment.body must be text of 1 to 10,000 characters, not only white space',
        ])
      }
      expect(
        (await c.api('POST', `${path}/comments`, { token: member.token, json: {} })).status,
      ).toBe(400)
      expect((await comment('nope', stranger.token)).status).toBe(404)

      // Oldest first, paged.
      const page1 = await c.api('GET', `${path}/comments?limit=1`, { token: other.token })
      expect(page1.body.comments.map((x: Fields) => x['body'])).toEqual([first.body.comment.body])
      const page2 = await c.api(
        'GET',
        `${path}/comments?limit=1&cursor=${page1.body.next_cursor}`,
        {
          token: other.token,
        },
      )
      expect(page2.body.comments.map((x: Fields) => x['body'])).toEqual(['Second'])

      const del = (id: string, token: string) =>
        c.api('DELETE', `${path}/comments/${id}`, { token })
      expect((await del(first.body.comment.id, other.token)).status).toBe(403)
      expect((await del(first.body.comment.id, stranger.token)).status).toBe(404)
      expect((await del(second.body.comment.id, member.token)).status).toBe(403)
      expect((await del(first.body.comment.id, owner.token)).status).toBe(204)
      expect((await del(first.body.comment.id, owner.token)).status).toBe(404)
      expect((await del(second.body.comment.id, owner.token)).status).toBe(204)

      await c.api('PATCH', path, {
        token: member.token,
        json: { issue: { assignee: other.email } },
      })
      await c.api('PATCH', path, {
        token: owner.token,
        json: { issue: { status: 'resolved', assignee: null } },
      })
      // A change to what it already is records nothing.
      await c.api('PATCH', path, { token: owner.token, json: { issue: { status: 'resolved' } } })
      const activity = await c.api('GET', `${path}/activity`, { token: other.token })
      expect(activity.status).toBe(200)
      expect(activity.body.activity.map((a: Fields) => [a['kind'], a['actor'], a['data']])).toEqual(
        [
          ['comment', member.email, { comment_id: first.body.comment.id }],
          ['comment', owner.email, { comment_id: second.body.comment.id }],
          ['comment_deleted', owner.email, { comment_id: first.body.comment.id }],
          ['comment_deleted', owner.email, { comment_id: second.body.comment.id }],
          ['assignee', member.email, { from: null, to: other.email }],
          ['status', owner.email, { from: 'unresolved', to: 'resolved' }],
          ['assignee', owner.email, { from: other.email, to: null }],
        ],
      )
      expect((await c.api('GET', `${path}/activity`, { token: stranger.token })).status).toBe(404)
      const unknown = `/api/v1/projects/${project.id}/issues/${unique('x')}`
      expect((await c.api('GET', `${unknown}/activity`, { token: owner.token })).status).toBe(404)
      expect((await c.api('GET', `${unknown}/comments`, { token: owner.token })).status).toBe(404)
    })
  })
}
