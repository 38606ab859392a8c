import { randomBytes } from 'node:crypto'
import { ADMIN_TOKEN, createClient, type Harness, unique } from '@tis/test-utils/server'
import { describe, expect, it } from 'vitest'
import {
  jsCheckIn,
  jsExpressError,
  jsExpressTransaction,
  jsSpan,
  rubyCheckIn,
  rubyRequestError,
  rubySpan,
} from './logister-payloads'

type Fields = Record<string, unknown>

/**
 * Issue 17: what Logister's Ruby and JavaScript clients send is stored and read back right —
 * check-ins with their fields in context, span kinds outside the list, the status, time and
 * trace id where those clients put them, span status and level, nested camelCase keys.
 */
export function describeLogisterClients(harness: () => Harness) {
  async function setup() {
    const c = createClient(harness().url)
    const { projectId, key } = await c.projectWithKey()
    return {
      projectId,
      async post(path: string, body: unknown) {
        const r = await c.ingest(path, key, body)
        if (r.status !== 201) throw new Error(`${path}: ${r.status} ${r.text}`)
        return r.body.id as string
      },
      get(path: string) {
        return c.api('GET', `/api/v1/projects/${projectId}${path}`, { token: ADMIN_TOKEN })
      },
    }
  }
  const minutesAgo = (n: number) => new Date(harness().now().getTime() - n * 60_000).toISOString()

  /** What a project's monitors and check-ins hold, without ids and arrival times. */
  async function monitorState(projectId: string) {
    const monitors = await harness().query(
      `select slug, environment, status, last_status, last_check_in_at, expected_interval_seconds,
              last_release, last_duration_ms, check_in_count::int as check_in_count
         from monitors where project_id = $1 order by slug, environment`,
      [projectId],
    )
    const checkIns = await harness().query(
      `select slug, status, environment, release, occurred_at, duration_ms, trace_id, request_id
         from check_ins where project_id = $1 order by occurred_at`,
      [projectId],
    )
    return { monitors, checkIns }
  }

  describe('check-ins with their fields in context (point 1)', () => {
    it('a Ruby check-in moves its monitor exactly like the compact and top-level shapes', async () => {
      const fields = {
        environment: 'batch',
        release: 'v9',
        expected_interval_seconds: 600,
        duration_ms: 1534.25,
        trace_id: `t-${randomBytes(4).toString('hex')}`,
        request_id: 'r-1',
      }
      const runs = [
        { status: 'ok', occurred_at: minutesAgo(20) },
        { status: 'error', occurred_at: minutesAgo(10) },
      ]
      const compact = await setup()
      const topLevel = await setup()
      const ruby = await setup()
      for (const run of runs) {
        await compact.post('/api/v1/check_ins', { check_in: { slug: 'job', ...run, ...fields } })
        await topLevel.post('/api/v1/ingest_events', {
          event: {
            event_type: 'check_in',
            message: `job ${run.status}`,
            check_in_slug: 'job',
            check_in_status: run.status,
            occurred_at: run.occurred_at,
            ...fields,
          },
        })
        await ruby.post(
          '/api/v1/ingest_events',
          rubyCheckIn('job', run.status, { ...run, ...fields }),
        )
      }
      const expected = await monitorState(compact.projectId)
      expect(expected.monitors).toEqual([
        expect.objectContaining({
          slug: 'job',
          environment: 'batch',
          status: 'error',
          check_in_count: 2,
        }),
      ])
      expect(await monitorState(topLevel.projectId)).toEqual(expected)
      expect(await monitorState(ruby.projectId)).toEqual(expected)
      const strip = ({ id: _id, ...m }: Fields) => m
      const read = async (s: typeof compact) => (await s.get('/monitors')).body.monitors.map(strip)
      expect(await read(ruby)).toEqual(await read(compact))
    })

    it('the shape quoted in the issue is accepted (was 422 check_in_slug can’t be blank)', async () => {
      const s = await setup()
      const slug = unique('job')
      await s.post('/api/v1/ingest_events', {
        event: {
          event_type: 'check_in',
          message: 'job ok',
          context: { check_in_slug: slug, check_in_status: 'ok', expected_interval_seconds: 600 },
        },
      })
      const [monitor] = (await s.get('/monitors')).body.monitors
      expect(monitor).toMatchObject({ slug, health: 'ok', expected_interval_seconds: 600 })
    })

    it('a logister-js check-in with only checked_at is recorded at that time', async () => {
      const s = await setup()
      const checkedAt = minutesAgo(120)
      await s.post('/api/v1/check_ins', jsCheckIn('nightly', checkedAt))
      const [monitor] = (await s.get('/monitors')).body.monitors
      expect(monitor.last_check_in_at).toBe(new Date(checkedAt).toISOString())
      // Two hours ago with an hourly interval (plus half an hour of grace): missed, where the
      // arrival time would have made it look healthy.
      expect(monitor.status).toBe('missed')
    })
  })

  describe('spans (points 3 and 6)', () => {
    it('stores the Ruby kind "job" and the logister-js kind "graphql" as internal, the sent kind in context, with status and level', async () => {
      const s = await setup()
      const trace = randomBytes(16).toString('hex')
      await s.post(
        '/api/v1/ingest_events',
        rubySpan('ImportJob', {
          name: 'ImportJob',
          kind: 'job',
          status: 'ok',
          trace_id: trace,
          span_id: 'a1b2c3d4e5f60718',
          duration_ms: 25,
          started_at: minutesAgo(1),
        }),
      )
      await s.post(
        '/api/v1/ingest_events',
        jsSpan('query Orders', { traceId: trace, kind: 'graphql', status: 'error' }),
      )
      const r = await s.get(`/traces/${trace}`)
      expect(r.status).toBe(200)
      const byName = new Map<string, Fields>(
        r.body.spans.map((span: Fields) => [span['name'], span]),
      )
      expect(byName.get('ImportJob')).toMatchObject({
        kind: 'internal',
        status: 'ok',
        level: 'info',
        context: { kind: 'job' },
      })
      expect(byName.get('query Orders')).toMatchObject({
        kind: 'internal',
        status: 'error',
        level: 'error',
        context: { kind: 'graphql' },
      })
    })
  })

  describe('fields where the clients put them (point 6)', () => {
    it("counts logister-js's Express transaction with context.http.status_code 500 as an error", async () => {
      const s = await setup()
      for (const [i, statusCode] of [200, 500, 503, 404].entries()) {
        const traceId = randomBytes(16).toString('hex')
        await s.post(
          '/api/v1/ingest_events',
          jsExpressTransaction({
            traceId,
            requestId: `req-${i}`,
            path: '/checkout',
            statusCode,
            at: minutesAgo(5),
          }),
        )
      }
      const [row] = (await s.get('/transactions')).body.transactions
      expect(row).toMatchObject({ name: 'GET /checkout', count: 4, error_count: 2 })
    })

    it('links the Express error handler’s and the Rack middleware’s errors to their traces', async () => {
      const s = await setup()
      const jsTrace = randomBytes(16).toString('hex')
      const rubyTrace = randomBytes(16).toString('hex')
      const tx = await s.post(
        '/api/v1/ingest_events',
        jsExpressTransaction({
          traceId: jsTrace,
          requestId: 'req-js',
          path: '/boom',
          statusCode: 500,
          at: minutesAgo(1),
        }),
      )
      const jsError = await s.post(
        '/api/v1/ingest_events',
        jsExpressError(jsTrace, 'req-js', '/boom'),
      )
      const rubyBody = rubyRequestError(rubyTrace, 'req-rb')
      const rubyError = await s.post('/api/v1/ingest_events', rubyBody)

      const ids = async (path: string) =>
        (await s.get(path)).body.events.map((e: Fields) => e['id'])
      expect((await ids(`/events?trace_id=${jsTrace}`)).sort()).toEqual([tx, jsError].sort())
      expect(await ids(`/events?trace_id=${rubyTrace}`)).toEqual([rubyError])
      const detail = (await s.get(`/events/${jsError}`)).body
      expect(detail.related.map((e: Fields) => e['id'])).toEqual([tx])
      expect(detail.event.context.request.trace_id).toBe(jsTrace)
      const trace = (await s.get(`/traces/${jsTrace}`)).body
      expect(trace.events.map((e: Fields) => e['id']).sort()).toEqual([tx, jsError].sort())
      const ruby = (await s.get(`/events/${rubyError}`)).body.event
      expect(ruby.context.trace).toEqual(rubyBody.event.context.trace)
      expect(ruby.trace_id).toBe(rubyTrace)
    })
  })

  describe('nested camelCase keys (point 7)', () => {
    it("stores the Rack middleware's request context with only the documented keys renamed", async () => {
      const s = await setup()
      const body = rubyRequestError('t', 'req-7')
      const sent = body.event.context
      const id = await s.post('/api/v1/ingest_events', body)
      const { context } = (await s.get(`/events/${id}`)).body.event
      const { requestId, ...requestUserKeys } = sent.request
      expect(context.request).toEqual({ ...requestUserKeys, request_id: requestId })
      expect(context).toMatchObject({
        httpMethod: 'GET',
        clientIp: '10.0.0.7',
        headers: sent.headers,
        response: sent.response,
        route: sent.route,
        trace: sent.trace,
        exception: sent.exception,
        request_id: 'req-7',
      })
      // context.requestId is a spelling of the documented request_id, sent beside it: dropped.
      expect(context).not.toHaveProperty('requestId')
    })
  })

  describe('user context is kept as sent (point 2)', () => {
    it.each([
      [
        'a log with context.kind "client"',
        { event_type: 'log', message: 'm', context: { kind: 'client' } },
      ],
      [
        'a log with context.started_at "yesterday"',
        { event_type: 'log', message: 'm', context: { started_at: 'yesterday' } },
      ],
      [
        'a span with a valid started_at and context.started_at "yesterday"',
        {
          event_type: 'span',
          name: 's',
          started_at: '2026-01-01T00:00:00Z',
          context: { started_at: 'yesterday' },
        },
      ],
    ])('%s: 201', async (_case, event) => {
      const s = await setup()
      await s.post('/api/v1/ingest_events', { event })
      const [stored] = await harness().query<{ payload: { context: Fields } }>(
        `select payload from ${event.event_type === 'span' ? 'spans' : 'events'} where project_id = $1`,
        [s.projectId],
      )
      expect(stored?.payload.context).toMatchObject(event.context)
    })
  })
}
