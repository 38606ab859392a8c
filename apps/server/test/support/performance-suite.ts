import { ADMIN_TOKEN, createClient, type Harness } from '@tis/test-utils/server'
import { describe, expect, it } from 'vitest'

type Fields = Record<string, unknown>

/** Linear-interpolation percentile (PostgreSQL's percentile_cont), computed by hand. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  const rank = p * (sorted.length - 1)
  const lo = Math.floor(rank)
  const hi = Math.ceil(rank)
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo)
}

/**
 * The performance reads end to end: transactions, metrics and traces ingested through the public
 * endpoint and read back as percentiles, time buckets and span trees.
 */
export function describePerformance(harness: () => Harness) {
  async function setup() {
    const c = createClient(harness().url)
    const { projectId, key } = await c.projectWithKey()
    return {
      async send(event: Fields) {
        const r = await c.ingest('/api/v1/ingest_events', key, { event })
        if (r.status !== 201) throw new Error(`ingest: ${r.status} ${r.text}`)
        return r.body.id as string
      },
      get(path: string, token = ADMIN_TOKEN) {
        return c.api('GET', `/api/v1/projects/${projectId}${path}`, { token })
      },
    }
  }
  const at = (minute: number, second = 0, ms = 0) =>
    new Date(Date.UTC(2026, 5, 1, 12, minute, second, ms)).toISOString()
  const window = `since=${at(0)}&until=${at(60)}`

  describe('transactions', () => {
    it('counts, errors and p50/p95/p99/avg per name match values computed by hand', async () => {
      const s = await setup()
      const orders = [12, 250.5, 31, 47, 88, 1200, 5, 64, 73, 19, 940]
      for (const [i, d] of orders.entries()) {
        await s.send({
          event_type: 'transaction',
          message: 'GET /orders/:id',
          transaction_name: 'GET /orders/:id',
          duration_ms: d,
          occurred_at: at(1, i),
          environment: 'prod',
          // The SDK's status option lands in context.status; one 503 and one level=error.
          context: { status: i === 3 ? 503 : 200 },
          ...(i === 5 ? { level: 'error' } : {}),
        })
      }
      // Status codes as strings and under status_code count too; 499 does not.
      await s.send({
        event_type: 'transaction',
        message: 'POST /pay',
        transactionName: 'POST /pay',
        durationMs: 100,
        occurred_at: at(2),
        context: { status_code: '502' },
      })
      await s.send({
        event_type: 'transaction',
        message: 'POST /pay',
        transaction_name: 'POST /pay',
        duration_ms: 300,
        occurred_at: at(3),
        context: { status_code: 499 },
      })
      // Outside the window, another environment, and not a transaction: all left out.
      await s.send({
        event_type: 'transaction',
        message: 'POST /pay',
        transaction_name: 'POST /pay',
        duration_ms: 1,
        occurred_at: at(61),
      })
      await s.send({
        event_type: 'transaction',
        message: 'GET /orders/:id',
        transaction_name: 'GET /orders/:id',
        duration_ms: 99999,
        occurred_at: at(4),
        environment: 'staging',
      })
      await s.send({ event_type: 'log', message: 'GET /orders/:id', occurred_at: at(4) })

      const r = await s.get(`/transactions?${window}`)
      expect(r.status).toBe(200)
      expect(r.body.since).toBe(at(0))
      expect(r.body.until).toBe(at(60))
      const [ordersRow, payRow, ...rest] = r.body.transactions
      expect(rest).toEqual([])
      const withStaging = [...orders, 99999]
      const avg = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length
      expect(ordersRow.name).toBe('GET /orders/:id')
      expect(ordersRow.count).toBe(12)
      expect(ordersRow.error_count).toBe(2)
      expect(ordersRow.error_rate).toBeCloseTo(2 / 12, 10)
      expect(ordersRow.p50_ms).toBeCloseTo(percentile(withStaging, 0.5), 6)
      expect(ordersRow.p95_ms).toBeCloseTo(percentile(withStaging, 0.95), 6)
      expect(ordersRow.p99_ms).toBeCloseTo(percentile(withStaging, 0.99), 6)
      expect(ordersRow.avg_ms).toBeCloseTo(avg(withStaging), 6)
      expect(payRow).toMatchObject({ name: 'POST /pay', count: 2, error_count: 1, p50_ms: 200 })

      const prod = await s.get(`/transactions?${window}&environment=prod`)
      const [prodOrders] = prod.body.transactions
      expect(prod.body.transactions).toHaveLength(1)
      expect(prodOrders.count).toBe(orders.length)
      expect(prodOrders.p50_ms).toBeCloseTo(percentile(orders, 0.5), 6)
      expect(prodOrders.p95_ms).toBeCloseTo(percentile(orders, 0.95), 6)
      expect(prodOrders.p99_ms).toBeCloseTo(percentile(orders, 0.99), 6)
      expect(prodOrders.avg_ms).toBeCloseTo(avg(orders), 6)
    })

    it('defaults to the last 24 hours and rejects bad windows with 422', async () => {
      const s = await setup()
      await s.send({ event_type: 'transaction', message: 'recent', duration_ms: 5 })
      const r = await s.get('/transactions')
      expect(r.status).toBe(200)
      expect(Date.parse(r.body.until) - Date.parse(r.body.since)).toBe(86_400_000)
      expect(r.body.transactions).toEqual([
        expect.objectContaining({ name: 'recent', count: 1, p50_ms: 5, avg_ms: 5 }),
      ])
      const backwards = await s.get(`/transactions?since=${at(5)}&until=${at(1)}`)
      expect(backwards.status).toBe(422)
      expect(backwards.body.errors).toEqual(['since must be before until'])
      const bad = await s.get('/transactions?since=yesterday&limit=0')
      expect(bad.status).toBe(422)
      expect(bad.body.errors).toEqual([
        'since must be an RFC 3339 date-time',
        'limit must be a positive integer',
      ])
    })
  })

  describe('transaction latency', () => {
    it('buckets p50/p95/p99, count and errors over time, for one name or all', async () => {
      const s = await setup()
      const tx = (name: string, minute: number, duration: number, fields: Fields = {}) =>
        s.send({
          event_type: 'transaction',
          message: name,
          occurred_at: at(minute),
          duration_ms: duration,
          ...fields,
        })
      const first = [12, 40, 7, 90]
      for (const [i, d] of first.entries()) await tx('GET /a', i, d)
      await tx('GET /a', 6, 300, { context: { status_code: 500 } })
      await tx('GET /b', 1, 1000)
      await tx('GET /a', 20, 5) // outside the window

      const r = await s.get(
        `/transactions/latency?name=GET /a&since=${at(0)}&until=${at(15)}&interval=5m`,
      )
      expect(r.status).toBe(200)
      const bucket = (values: number[], errors = 0) => ({
        count: values.length,
        error_count: errors,
        p50_ms: percentile(values, 0.5),
        p95_ms: percentile(values, 0.95),
        p99_ms: percentile(values, 0.99),
        avg_ms: values.reduce((a, b) => a + b, 0) / values.length,
      })
      const empty = {
        count: 0,
        error_count: 0,
        p50_ms: null,
        p95_ms: null,
        p99_ms: null,
        avg_ms: null,
      }
      expect(r.body).toEqual({
        name: 'GET /a',
        since: at(0),
        until: at(15),
        interval_seconds: 300,
        buckets: [
          { start: at(0), ...bucket(first) },
          { start: at(5), ...bucket([300], 1) },
          { start: at(10), ...empty },
        ],
      })
      const all = await s.get(`/transactions/latency?since=${at(0)}&until=${at(5)}&interval=5m`)
      expect(all.body.name).toBeNull()
      expect(all.body.buckets).toEqual([{ start: at(0), ...bucket([...first, 1000]) }])
    })

    it('follows the metric read rules: default window and interval, 422 naming the parameter', async () => {
      const s = await setup()
      const r = await s.get('/transactions/latency')
      expect(r.status).toBe(200)
      expect(Date.parse(r.body.until) - Date.parse(r.body.since)).toBe(86_400_000)
      expect(r.body.interval_seconds).toBe(900)
      expect(r.body.buckets).toHaveLength(96)
      const bad = await s.get('/transactions/latency?interval=5w&since=yesterday')
      expect(bad.status).toBe(422)
      expect(bad.body.errors).toEqual([
        'since must be an RFC 3339 date-time',
        'interval must be a number of seconds (or of minutes, hours or days: 30s, 5m, 1h, 1d) up to 365 days',
      ])
      const tooMany = await s.get(`/transactions/latency?since=${at(0)}&until=${at(59)}&interval=1`)
      expect(tooMany.status).toBe(422)
      const empty = await s.get('/transactions/latency?name=')
      expect(empty.status).toBe(422)
      expect(empty.body.errors).toEqual(['name must not be empty'])
    })
  })

  describe('metrics', () => {
    it('buckets count/sum/min/max/avg of context.value (else duration_ms), empty buckets zero', async () => {
      const s = await setup()
      const metric = (minute: number, fields: Fields) =>
        s.send({ event_type: 'metric', message: 'db.query', occurred_at: at(minute), ...fields })
      await metric(0, { context: { value: 4 } })
      await metric(4, { context: { value: 10 } })
      await metric(5, { duration_ms: 7 })
      await metric(14, { context: { value: 3, unit: 'ms' }, duration_ms: 1000 })
      await metric(9, {}) // no value: counted, not aggregated
      await metric(16, { context: { value: 99 } }) // outside the window
      await s.send({
        event_type: 'metric',
        message: 'cache.hit',
        occurred_at: at(1),
        context: { value: 1 },
      })

      const r = await s.get(`/metrics?name=db.query&since=${at(0)}&until=${at(15)}&interval=5m`)
      expect(r.status).toBe(200)
      expect(r.body).toEqual({
        name: 'db.query',
        since: at(0),
        until: at(15),
        interval_seconds: 300,
        buckets: [
          { start: at(0), count: 2, sum: 14, min: 4, max: 10, avg: 7 },
          { start: at(5), count: 2, sum: 7, min: 7, max: 7, avg: 7 },
          { start: at(10), count: 1, sum: 3, min: 3, max: 3, avg: 3 },
        ],
      })
      const empty = await s.get(`/metrics?name=nothing&since=${at(0)}&until=${at(2)}&interval=60`)
      expect(empty.body.buckets).toEqual([
        { start: at(0), count: 0, sum: null, min: null, max: null, avg: null },
        { start: at(1), count: 0, sum: null, min: null, max: null, avg: null },
      ])
      // The default interval keeps the bucket count readable: 1 hour → 60 one-minute buckets.
      const auto = await s.get(`/metrics?name=db.query&since=${at(0)}&until=${at(60)}`)
      expect(auto.body.interval_seconds).toBe(60)
      expect(auto.body.buckets).toHaveLength(60)
    })

    it('names each bad parameter in a 422', async () => {
      const s = await setup()
      const missing = await s.get('/metrics')
      expect(missing.status).toBe(422)
      expect(missing.body.errors).toEqual(['name is required'])
      const bad = await s.get(`/metrics?name=x&interval=5w`)
      expect(bad.body.errors).toEqual([
        'interval must be a number of seconds (or of minutes, hours or days: 30s, 5m, 1h, 1d) up to 365 days',
      ])
      const tooMany = await s.get(`/metrics?name=x&since=${at(0)}&until=${at(59)}&interval=1`)
      expect(tooMany.status).toBe(422)
      expect(tooMany.body.errors).toEqual([
        'interval is too small for the window: at most 1440 buckets (at least 3 seconds)',
      ])
    })
  })

  describe('traces', () => {
    const trace = `${'a'.repeat(31)}1`
    const span = (fields: Fields) => ({ event_type: 'span', trace_id: trace, ...fields })

    it('returns every span with parent links and depth, ordered by start, with the trace events', async () => {
      const s = await setup()
      const root = await s.send(
        span({
          name: 'GET /checkout',
          span_id: 'r000000000000001',
          kind: 'server',
          started_at: at(1, 0),
          ended_at: at(1, 2),
          context: { route: '/checkout' },
        }),
      )
      await s.send(
        span({
          name: 'SELECT cart',
          span_id: 'c000000000000002',
          parent_span_id: 'r000000000000001',
          kind: 'db',
          started_at: at(1, 0, 100),
          duration_ms: 300,
        }),
      )
      await s.send(
        span({
          name: 'POST stripe',
          span_id: 'c000000000000003',
          parent_span_id: 'r000000000000001',
          kind: 'http',
          started_at: at(1, 0, 500),
          ended_at: at(1, 1, 500),
        }),
      )
      await s.send(
        span({
          name: 'tls handshake',
          span_id: 'g000000000000004',
          parent_span_id: 'c000000000000003',
          kind: 'internal',
          started_at: at(1, 0, 600),
          duration_ms: 50,
        }),
      )
      const err = await s.send({
        event_type: 'error',
        message: 'card declined',
        trace_id: trace,
        occurred_at: at(1, 1),
      })
      // Another trace's span is not included.
      await s.send({
        event_type: 'span',
        trace_id: 'b'.repeat(32),
        name: 'other',
        started_at: at(1),
      })

      const r = await s.get(`/traces/${trace}`)
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({
        trace_id: trace,
        duration_ms: 2000,
        started_at: at(1, 0),
        ended_at: at(1, 2),
        span_count: 4,
        truncated: false,
      })
      expect(r.body.root).toMatchObject({ id: root, name: 'GET /checkout', kind: 'server' })
      expect(r.body.root.context).toMatchObject({ route: '/checkout' })
      expect(
        r.body.spans.map((x: Fields) => [
          x['name'],
          x['parent_span_id'],
          x['depth'],
          x['duration_ms'],
        ]),
      ).toEqual([
        ['GET /checkout', null, 0, 2000],
        ['SELECT cart', 'r000000000000001', 1, 300],
        ['POST stripe', 'r000000000000001', 1, 1000],
        ['tls handshake', 'c000000000000003', 2, 50],
      ])
      expect(r.body.events.map((e: Fields) => e['id'])).toEqual([err])

      const unknown = await s.get(`/traces/${'f'.repeat(32)}`)
      expect(unknown.status).toBe(404)
    })

    it('lists recent root spans of kind server and browser, filtered and paged', async () => {
      const s = await setup()
      const ids: string[] = []
      for (let i = 0; i < 5; i++) {
        ids.push(
          await s.send({
            event_type: 'span',
            trace_id: `${i}`.repeat(32),
            span_id: `${i}`.repeat(16),
            name: i % 2 ? 'page /home' : 'GET /api',
            kind: i % 2 ? 'browser' : 'server',
            started_at: at(10 + i),
            duration_ms: 10 * (i + 1),
          }),
        )
      }
      // A child span and an internal root are not listed by default.
      await s.send({
        event_type: 'span',
        trace_id: '0'.repeat(32),
        parent_span_id: '0'.repeat(16),
        name: 'child',
        kind: 'server',
        started_at: at(30),
      })
      const internal = await s.send({
        event_type: 'span',
        name: 'cron tick',
        kind: 'internal',
        started_at: at(31),
      })

      const first = await s.get('/traces?limit=2')
      expect(first.status).toBe(200)
      expect(first.body.traces.map((t: Fields) => t['id'])).toEqual([ids[4], ids[3]])
      const second = await s.get(`/traces?limit=2&cursor=${first.body.next_cursor}`)
      const third = await s.get(`/traces?limit=2&cursor=${second.body.next_cursor}`)
      expect([...second.body.traces, ...third.body.traces].map((t: Fields) => t['id'])).toEqual([
        ids[2],
        ids[1],
        ids[0],
      ])
      expect(third.body.next_cursor).toBeNull()

      const browser = await s.get('/traces?kind=browser')
      expect(browser.body.traces.map((t: Fields) => t['name'])).toEqual([
        'page /home',
        'page /home',
      ])
      const internalOnly = await s.get('/traces?kind=internal')
      expect(internalOnly.body.traces.map((t: Fields) => t['id'])).toEqual([internal])
      const searched = await s.get(`/traces?q=API&since=${at(11)}&until=${at(13)}`)
      expect(searched.body.traces.map((t: Fields) => t['id'])).toEqual([ids[2]])
      const bad = await s.get('/traces?cursor=nope')
      expect(bad.status).toBe(422)
      expect(bad.body.errors).toEqual(['cursor is not a cursor of this list'])
    })
  })
}
