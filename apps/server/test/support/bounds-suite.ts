import { EXTREME, extremeRowsSql } from '@tis/test-utils/extreme-rows'
import { ADMIN_TOKEN, createClient, type Harness } from '@tis/test-utils/server'
import { describe, expect, it } from 'vitest'

/**
 * Issue 18, points 1, 2 and 4 end to end: the security review's findings, each as it was
 * reproduced (extreme numbers that broke the performance views, script URLs as links, management
 * bodies that were not objects).
 */
export function describeBounds(harness: () => Harness) {
  async function setup() {
    const c = createClient(harness().url)
    const { projectId, key } = await c.projectWithKey()
    return {
      c,
      projectId,
      ingest: (path: string, json: unknown) => c.ingest(path, key, json),
      get: (path: string) =>
        c.api('GET', `/api/v1/projects/${projectId}${path}`, { token: ADMIN_TOKEN }),
    }
  }

  describe('finding 1: an extreme duration cannot break the performance views', () => {
    it('two transactions with duration_ms 1e308 are refused (422 naming the field) and the reads answer 200', async () => {
      const s = await setup()
      for (let i = 0; i < 2; i++) {
        const r = await s.ingest('/api/v1/ingest_events', {
          event: { event_type: 'transaction', message: 'GET /x', duration_ms: 1e308 },
        })
        expect(r.status).toBe(422)
        expect(r.body.errors.join('\n')).toMatch(/^duration_ms must be less than or equal to/m)
      }
      expect((await s.get('/transactions')).status).toBe(200)
      expect((await s.get('/transactions/latency')).status).toBe(200)
    })
  })

  describe('every read over rows an old database may hold (written past validation)', () => {
    async function seeded() {
      const s = await setup()
      for (const sql of extremeRowsSql(s.projectId, harness().now())) await harness().query(sql)
      return s
    }
    const READS = [
      '/issues?status=all&sparkline=24h',
      '/issues?status=all&limit=1',
      '/events?limit=200',
      `/events?trace_id=${EXTREME.traceId}`,
      '/monitors',
      '/deployments?limit=200',
      '/transactions',
      '/transactions/latency',
      `/transactions/latency?name=${encodeURIComponent(EXTREME.transaction)}&interval=1m`,
      `/metrics?name=${EXTREME.metric}`,
      '/traces?limit=200',
      '/traces?kind=server&limit=1',
      `/traces/${EXTREME.traceId}`,
    ]

    it('answers 200 with JSON on every read, and aggregates only in-range values', async () => {
      const s = await seeded()
      for (const path of READS) {
        const r = await s.get(path)
        expect(r.status, `${path.slice(0, 100)}: ${r.text.slice(0, 300)}`).toBe(200)
      }
      const transactions = (await s.get('/transactions')).body.transactions
      expect(transactions).toContainEqual({
        name: EXTREME.transaction,
        count: EXTREME.transactionCount,
        error_count: 1,
        error_rate: 1 / EXTREME.transactionCount,
        p50_ms: 20,
        p95_ms: 29,
        p99_ms: expect.closeTo(29.8, 9),
        avg_ms: 20,
      })
      const metric = (await s.get(`/metrics?name=${EXTREME.metric}&interval=1d`)).body
      expect(metric.buckets).toEqual([
        { start: metric.since, count: EXTREME.metricCount, sum: 15, min: -5, max: 15, avg: 5 },
      ])
    })

    it('shows unrepresentable times as null, huge counts as numbers and no link but http(s)', async () => {
      const s = await seeded()
      const issues = (await s.get('/issues?status=all&sparkline=24h')).body.issues
      expect(issues).toHaveLength(6)
      for (const i of issues) expect(i.count).toBe(Number(EXTREME.maxBigint))
      expect(issues.map((i: { last_seen_at: string | null }) => i.last_seen_at)).toContain(null)
      expect(
        issues
          .flatMap((i: { sparkline: number[] }) => i.sparkline)
          .reduce((a: number, b: number) => a + b),
      ).toBe(6)
      const monitors = (await s.get('/monitors')).body.monitors
      expect(monitors).toHaveLength(6)
      for (const m of monitors) expect(m.check_in_count).toBe(Number(EXTREME.maxBigint))
      const deployments = (await s.get('/deployments?limit=200')).body.deployments
      expect(deployments).toHaveLength(6)
      for (const d of deployments) {
        expect(d).toMatchObject({
          pull_request_url: null,
          release_url: null,
          compare_url: null,
          workflow_run_url: null,
          deployment_url: 'https://ok.test/pr/1',
        })
      }
      // The error detail's deployment context is sanitised the same way.
      const now = harness().now().getTime()
      const since = new Date(now - 3_600_000).toISOString()
      const until = new Date(now + 60_000).toISOString()
      const recent = `/events?event_type=error&limit=1&since=${since}&until=${until}`
      const error = (await s.get(recent)).body.events[0]
      const detail = await s.get(`/events/${error.id}`)
      expect(detail.status).toBe(200)
      expect(detail.body.deployment).toMatchObject({
        pull_request_url: null,
        deployment_url: 'https://ok.test/pr/1',
      })
      const traceReply = await s.get(`/traces/${EXTREME.traceId}`)
      const trace = traceReply.body
      expect(trace.span_count).toBe(21)
      // A single record keeps its stored (finite) value; NaN and ±Infinity answer null.
      const durations = trace.spans.map((x: { duration_ms: number | null }) => x.duration_ms)
      expect(durations).toContain(1.7976931348623157e308)
      expect(durations).toContain(null)
      expect(traceReply.text).not.toMatch(/:(NaN|-?Infinity)[,}]/)
    })
  })

  describe('finding 2: links are only http(s) links', () => {
    it.each([
      ['pull_request_url', 'javascript:alert(1)'],
      ['deployment_url', 'data:text/html,<script>alert(1)</script>'],
      ['release_url', 'vbscript:msgbox'],
      ['compare_url', 'file:///etc/passwd'],
      ['workflow_run_url', 'ftp://example.com/run'],
    ])('%s %s is refused with 422 naming the field', async (field, url) => {
      const s = await setup()
      const r = await s.ingest('/api/v1/deployments', {
        deployment: { release: 'v1', repository: 'o/n', commit_sha: 'abcdef1', [field]: url },
      })
      expect(r.status).toBe(422)
      expect(r.body.errors).toEqual([`${field} must be an http or https URL`])
      expect((await s.get('/deployments')).body.deployments).toEqual([])
    })
  })

  describe('finding 4: management bodies that are not the envelope are refused', () => {
    it.each([
      ['null', 'null'],
      ['{}', '{}'],
      ['an array', '[]'],
      ['a string', '"x"'],
      ['a number', '1'],
      ['no body', ''],
      ['an empty envelope', '{"rate_limit":{}}'],
    ])(
      'PUT …/rate_limits with %s answers 400 naming the envelope and changes nothing',
      async (_rule, text) => {
        const s = await setup()
        const path = `/api/v1/projects/${s.projectId}/rate_limits`
        await s.c.api('PUT', path, { token: ADMIN_TOKEN, json: { rate_limit: { requests: 7 } } })
        const r = await s.c.api('PUT', path, {
          token: ADMIN_TOKEN,
          text,
          headers: { 'Content-Type': 'application/json' },
        })
        expect(r.status).toBe(400)
        expect(r.body.error).toMatch(/^param is missing or the value is empty: rate_limit \(.+\)$/)
        const after = await s.c.api('GET', path, { token: ADMIN_TOKEN })
        expect(after.body.rate_limit.overrides.requests).toBe(7)
      },
    )

    it('an envelope naming no rate limit is a 422 naming the fields; {"rate_limit": null} still clears', async () => {
      const s = await setup()
      const path = `/api/v1/projects/${s.projectId}/rate_limits`
      await s.c.api('PUT', path, { token: ADMIN_TOKEN, json: { rate_limit: { requests: 7 } } })
      const r = await s.c.api('PUT', path, {
        token: ADMIN_TOKEN,
        json: { rate_limit: { burst: 1 } },
      })
      expect(r.status).toBe(422)
      expect(r.body.errors).toEqual([
        'burst is not a permitted property',
        'rate_limit must include at least one of requests, period_seconds, auth_failure_requests',
      ])
      const cleared = await s.c.api('PUT', path, { token: ADMIN_TOKEN, json: { rate_limit: null } })
      expect(cleared.status).toBe(200)
      expect(cleared.body.rate_limit.overrides.requests).toBeNull()
    })

    // Every management and read-API write answers the same for the same unusable body.
    const WRITES: [string, string, (s: { projectId: string; issueId: string }) => string][] = [
      ['POST', 'user', () => '/api/v1/users'],
      ['POST', 'project', () => '/api/v1/projects'],
      ['POST', 'api_key', (s) => `/api/v1/projects/${s.projectId}/api_keys`],
      ['POST', 'member', (s) => `/api/v1/projects/${s.projectId}/members`],
      ['PUT', 'rate_limit', (s) => `/api/v1/projects/${s.projectId}/rate_limits`],
      ['PUT', 'source_settings', (s) => `/api/v1/projects/${s.projectId}/source_settings`],
      ['PATCH', 'issue', (s) => `/api/v1/projects/${s.projectId}/issues/${s.issueId}`],
    ]
    it.each(WRITES)(
      '%s %s: null, an array, a string, a number and {} are 400s naming the envelope',
      async (method, key, path) => {
        const s = await setup()
        await s.ingest('/api/v1/ingest_events', { event: { event_type: 'error', message: 'x' } })
        const issueId = (await s.get('/issues')).body.issues[0].id
        for (const text of ['null', '[]', '"x"', '3', '{}']) {
          const r = await s.c.api(method, path({ projectId: s.projectId, issueId }), {
            token: ADMIN_TOKEN,
            text,
            headers: { 'Content-Type': 'application/json' },
          })
          expect(r.status, `${text}: ${r.text}`).toBe(400)
          expect(r.body.error).toMatch(
            new RegExp(`^param is missing or the value is empty: ${key} \\(`),
          )
        }
      },
    )
  })
}
