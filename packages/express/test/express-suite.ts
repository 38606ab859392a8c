import type { AddressInfo } from 'node:net'
import { instrumentConsole } from '@tis/console'
import { type Client, createClient } from '@tis/sdk'
import { createClient as createApi, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import type express from 'express'
import type { ErrorRequestHandler } from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expressErrorHandler, expressMiddleware, getRequestContext } from '../src/index'
import type { ExpressOptions } from '../src/options'

type Express = typeof express
// biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary payload fields
type Row = Record<string, unknown> & { payload: Record<string, any> }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const CALLER_SPAN = '00f067aa0ba902b7'
const quiet = { debug: () => {}, info: () => {}, log: () => {}, warn: () => {}, error: () => {} }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The end-to-end suite of `@tis/express`, run once per Express major: a real Express server on
 * port 0 reports to the real tis server (PGlite), and the records are read back with SQL.
 */
export function describeExpress(major: 4 | 5, express: Express) {
  describe(`Express ${major} against the real tis server`, () => {
    let harness: Harness
    const closers: (() => Promise<unknown>)[] = []

    beforeAll(async () => {
      harness = await startPgliteHarness()
    }, 60_000)
    afterAll(async () => {
      for (const close of closers.splice(0)) await close()
      await harness?.close()
    })

    /** A fresh project (the suite's rate limit is per project), a client and an app on port 0. */
    async function start(
      options: ExpressOptions,
      routes: (app: ReturnType<Express>, client: Client) => void,
    ) {
      const project = await createApi(harness.url).projectWithKey()
      const client = createClient({
        baseUrl: harness.url,
        apiKey: project.key,
        release: `r${major}`,
        environment: 'e2e',
        autoFlush: false,
        // Request sessions have their own suite (express-sessions-suite.ts).
        sessions: false,
      })
      const app = express()
      app.use(expressMiddleware(client, options))
      routes(app, client)
      app.use(expressErrorHandler(client, options))
      // The application's own error handler, after ours: proves next(err) was called.
      const handled: ErrorRequestHandler = (error, _req, res, _next) => {
        const { status, statusCode } = error as { status?: number; statusCode?: number }
        res.status(status ?? statusCode ?? 500)
        res.json({ handled: true, message: (error as Error).message })
      }
      app.use(handled)
      const server = app.listen(0)
      await new Promise((resolve) => server.once('listening', resolve))
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const close = () => new Promise((resolve) => server.close(resolve))
      closers.push(close, () => client.close(1000))
      const rows = async (sql: string) => {
        const flushed = await client.flush(10_000)
        expect(flushed.dropped).toEqual({})
        return harness.query<Row>(sql.replace('$project', '$1'), [project.projectId])
      }
      const events = (type: string) =>
        rows(
          `select * from events where project_id = $project and event_type = '${type}' order by occurred_at`,
        )
      const spans = () =>
        rows('select * from spans where project_id = $project order by started_at')
      return { client, url, events, spans }
    }

    it('records one transaction per request, named by method and route pattern', async () => {
      const { url, events } = await start({}, (app) => {
        app.get('/orders/:id', (_req, res) => {
          res.json({ ok: true })
        })
        const users = express.Router()
        users.get('/:userId', (_req, res) => {
          res.status(201).send('created')
        })
        app.use('/api/users', users)
      })
      expect(
        (await fetch(`${url}/orders/1?x=1`, { headers: { 'x-request-id': 'req-1' } })).status,
      ).toBe(200)
      await fetch(`${url}/orders/2`)
      await fetch(`${url}/api/users/7`)
      expect((await fetch(`${url}/no/such/path/42`)).status).toBe(404)
      expect((await fetch(`${url}/other/unknown`, { method: 'POST' })).status).toBe(404)

      const rows = await events('transaction')
      expect(rows.map((r) => [r['transaction_name'], r['payload']['status']])).toEqual([
        ['GET /orders/:id', 200],
        ['GET /orders/:id', 200],
        ['GET /api/users/:userId', 201],
        ['GET <unmatched>', 404],
        ['POST <unmatched>', 404],
      ])
      const [first, second] = rows
      expect(first).toMatchObject({ request_id: 'req-1', release: `r${major}`, environment: 'e2e' })
      expect(first!['payload']['context']).toMatchObject({
        request: { method: 'GET', route: '/orders/:id', path: '/orders/1' },
        status_code: 200,
      })
      expect(first!['duration_ms']).toBeGreaterThanOrEqual(0)
      expect(second!['request_id']).toMatch(UUID)
      expect(first!['trace_id']).toMatch(/^[0-9a-f]{32}$/)
    }, 30_000)

    it('adds a server root span that continues the caller traceparent; captures inside are its children', async () => {
      const inside: unknown[] = []
      const { url, events, spans } = await start({ captureRequestSpans: true }, (app, client) => {
        const uninstall = instrumentConsole(client, { console: quiet as unknown as Console })
        app.get('/orders/:id', async (_req, res) => {
          await sleep(5) // an async continuation still sees the request
          inside.push(getRequestContext())
          client.captureSpan('SELECT orders', 3, { kind: 'db' })
          client.captureException(new Error('handled inside'))
          ;(quiet as unknown as Console).warn('slow order %s', 'o-1')
          res.json({ ok: true })
        })
        return uninstall
      })
      const traceparent = `00-${TRACE}-${CALLER_SPAN}-01`
      await fetch(`${url}/orders/9`, { headers: { traceparent, 'x-request-id': 'req-tp' } })
      await fetch(`${url}/orders/10`, {
        headers: { traceparent: `00-${'0'.repeat(32)}-${CALLER_SPAN}-01` },
      })

      const all = await spans()
      const roots = all.filter((s) => s['kind'] === 'server')
      expect(roots).toHaveLength(2)
      const root = roots.find((s) => s['trace_id'] === TRACE)!
      expect(root).toMatchObject({ name: 'GET /orders/:id', parent_span_id: CALLER_SPAN })
      expect(root['payload']).toMatchObject({ status: 200, request_id: 'req-tp' })
      const child = all.find((s) => s['kind'] === 'db' && s['trace_id'] === TRACE)!
      expect(child).toMatchObject({ name: 'SELECT orders', parent_span_id: root['span_id'] })
      // an invalid traceparent starts a fresh trace: a root without a parent
      const fresh = roots.find((s) => s !== root)!
      expect(fresh['trace_id']).not.toBe(TRACE)
      expect(fresh['parent_span_id']).toBeNull()
      const freshChild = all.find((s) => s['kind'] === 'db' && s['trace_id'] === fresh['trace_id'])!
      expect(freshChild['parent_span_id']).toBe(fresh['span_id'])

      expect(inside[0]).toEqual({
        traceId: TRACE,
        requestId: 'req-tp',
        spanId: root['span_id'],
        parentSpanId: CALLER_SPAN,
      })
      const errors = (await events('error')).filter((e) => e['trace_id'] === TRACE)
      expect(errors.map((e) => [e['message'], e['request_id']])).toEqual([
        ['handled inside', 'req-tp'],
      ])
      const logs = (await events('log')).filter((e) => e['trace_id'] === TRACE)
      expect(logs.map((e) => [e['message'], e['request_id']])).toEqual([
        ['slow order o-1', 'req-tp'],
      ])
      const [transaction] = (await events('transaction')).filter((e) => e['trace_id'] === TRACE)
      expect(transaction!['payload']['context']).toMatchObject({ span_id: root['span_id'] })
      // outside a request there is no context
      expect(getRequestContext()).toBeUndefined()
    }, 30_000)

    it('reports errors of status 500 or more with redacted request context, then calls next(err)', async () => {
      const { url, events } = await start({}, (app) => {
        app.get('/boom/:id', () => {
          throw new Error('kaboom')
        })
        app.get('/missing', () => {
          throw Object.assign(new Error('no such order'), { status: 404 })
        })
        app.get('/gone', (_req, _res, next) => {
          next(Object.assign(new Error('upstream down'), { statusCode: 503 }))
        })
        const nested = express.Router()
        nested.get('/:sku', () => {
          throw new Error('nested failure')
        })
        app.use('/shop/items', nested)
      })
      const response = await fetch(`${url}/boom/5?q=shoes&api_key=k1&token=t2&page=2`, {
        headers: {
          authorization: 'Bearer secret',
          cookie: 'sid=secret',
          'user-agent': 'tis-test',
          'x-request-id': 'req-err',
          'x-private': 'no',
        },
      })
      expect(response.status).toBe(500)
      expect(await response.json()).toEqual({ handled: true, message: 'kaboom' })
      const missing = await fetch(`${url}/missing`)
      expect(missing.status).toBe(404)
      expect((await missing.json()).handled).toBe(true)
      expect((await fetch(`${url}/gone`)).status).toBe(503)
      expect((await fetch(`${url}/shop/items/abc`)).status).toBe(500)

      const errors = await events('error')
      expect(errors.map((e) => [e['message'], e['payload']['context']['status_code']])).toEqual([
        ['kaboom', 500],
        ['upstream down', 503],
        ['nested failure', 500],
      ])
      const [boom, , nested] = errors
      expect(boom).toMatchObject({ request_id: 'req-err', release: `r${major}` })
      expect(boom!['payload']['context']['request']).toEqual({
        method: 'GET',
        path: '/boom/5',
        route: '/boom/:id',
        query_string: 'q=shoes&api_key=[Filtered]&token=[Filtered]&page=2',
        headers: {
          host: expect.any(String),
          'user-agent': 'tis-test',
          'x-request-id': 'req-err',
          accept: '*/*',
          'accept-language': '*',
        },
        request_id: 'req-err',
      })
      expect(boom!['payload']['context']['exception']).toMatchObject({ class: 'Error' })
      expect(nested!['payload']['context']['request']['route']).toBe('/shop/items/:sku')
      // the transactions carry the answered statuses, the 404 included
      const transactions = await events('transaction')
      expect(transactions.map((t) => [t['transaction_name'], t['payload']['status']])).toEqual([
        ['GET /boom/:id', 500],
        ['GET /missing', 404],
        ['GET /gone', 503],
        ['GET /shop/items/:sku', 500],
      ])
      expect(transactions[0]!['trace_id']).toBe(boom!['trace_id'])
    }, 30_000)

    it('reports a 404 raised as an error as 404 when shouldCaptureError chooses it', async () => {
      const seen: number[] = []
      const { url, events } = await start(
        {
          shouldCaptureError: (_error, status) => {
            seen.push(status)
            return status === 404
          },
        },
        (app) => {
          app.get('/missing', (_req, _res, next) => {
            next(Object.assign(new Error('not here'), { statusCode: 404 }))
          })
          app.get('/boom', () => {
            throw new Error('ignored by the predicate')
          })
        },
      )
      await fetch(`${url}/missing`)
      await fetch(`${url}/boom`)
      const errors = await events('error')
      expect(errors.map((e) => [e['message'], e['payload']['context']['status_code']])).toEqual([
        ['not here', 404],
      ])
      expect(seen).toEqual([404, 500])
    }, 30_000)

    // Registered for Express 5 only (4 does not catch rejected handlers): never a skipped test.
    if (major === 5)
      it('reports a rejected async handler (Express 5)', async () => {
        const { url, events } = await start({}, (app) => {
          app.get('/async', async () => {
            await sleep(1)
            throw new Error('async failure')
          })
        })
        expect((await fetch(`${url}/async`)).status).toBe(500)
        expect((await events('error')).map((e) => e['message'])).toEqual(['async failure'])
      }, 30_000)

    it('leaves ignored routes out, by pattern, path or RegExp', async () => {
      const { url, events, spans } = await start(
        { ignoreRoutes: ['/health', /^\/internal\//], captureRequestSpans: true },
        (app) => {
          app.get('/health', (_req, res) => {
            res.send('ok')
          })
          app.get('/internal/:x', (_req, res) => {
            res.send('ok')
          })
          app.get('/kept', (_req, res) => {
            res.send('ok')
          })
        },
      )
      await fetch(`${url}/health`)
      await fetch(`${url}/internal/metrics`)
      await fetch(`${url}/kept`)
      expect((await events('transaction')).map((t) => t['transaction_name'])).toEqual(['GET /kept'])
      expect((await spans()).map((s) => s['name'])).toEqual(['GET /kept'])
    }, 30_000)

    it('records a request the client aborted before the response finished', async () => {
      let answered: () => void = () => {}
      const late = new Promise<void>((resolve) => {
        answered = resolve
      })
      const { url, events } = await start({}, (app) => {
        app.get('/slow', (_req, res) => {
          setTimeout(() => {
            res.send('too late') // writing to a closed connection must stay harmless
            answered()
          }, 300)
        })
      })
      const controller = new AbortController()
      setTimeout(() => controller.abort(), 50)
      await expect(fetch(`${url}/slow`, { signal: controller.signal })).rejects.toThrow()
      await late
      const [transaction, ...rest] = await events('transaction')
      expect(rest).toEqual([])
      expect(transaction).toMatchObject({ transaction_name: 'GET /slow' })
      expect(transaction!['payload']).toMatchObject({ status: 499, context: { aborted: true } })
      expect(transaction!['duration_ms']).toBeLessThan(300)
    }, 30_000)

    it('never throws into the app, even with a client that throws everywhere', async () => {
      const broken = new Proxy({} as Client, {
        get: () => () => {
          throw new Error('client broke')
        },
      })
      const app = express()
      app.use(expressMiddleware(broken, { captureRequestSpans: true }))
      app.get('/ok', (_req, res) => {
        res.send('fine')
      })
      app.get('/fail', () => {
        throw new Error('route failure')
      })
      app.use(expressErrorHandler(broken))
      const server = app.listen(0)
      await new Promise((resolve) => server.once('listening', resolve))
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      try {
        const ok = await fetch(`${url}/ok`)
        expect([ok.status, await ok.text()]).toEqual([200, 'fine'])
        expect((await fetch(`${url}/fail`)).status).toBe(500)
      } finally {
        await new Promise((resolve) => server.close(resolve))
      }
    })
  })
}
