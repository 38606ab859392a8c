import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient } from '@tis/sdk'
import type express from 'express'
import type { ErrorRequestHandler } from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expressErrorHandler, expressMiddleware, setRequestUser } from '../src/index'

type Express = typeof express
// biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary body fields
type Body = Record<string, any>

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ''
    req.on('data', (chunk) => {
      text += chunk
    })
    req.on('end', () => resolve(text))
  })

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/**
 * Request-mode sessions, once per Express major: a real Express app on port 0 reports to a
 * local server that records every POST (the bodies the SDK sends are what is under test here;
 * the tis server's sessions endpoint is tested with the server).
 */
export function describeExpressSessions(major: 4 | 5, express: Express) {
  describe(`Express ${major}: request-mode sessions`, () => {
    const posted: { path: string; auth: string | undefined; body: Body }[] = []
    let collector: Server
    let collectorUrl: string
    const closers: (() => Promise<unknown>)[] = []

    beforeAll(async () => {
      collector = createServer(async (req, res) => {
        // A batch (NDJSON) is recorded line by line, as if each was sent alone.
        const lines = (await read(req)).split('\n').filter(Boolean)
        const path = (req.url ?? '').replace(/\/batch$/, '')
        for (const line of lines) {
          posted.push({ path, auth: req.headers.authorization, body: JSON.parse(line) })
        }
        const results = lines.map((_, index) => ({ index, status: 'accepted' }))
        res
          .writeHead(req.url?.endsWith('/batch') ? 202 : 201, {
            'Content-Type': 'application/json',
          })
          .end(JSON.stringify({ status: 'accepted', results }))
      })
      collectorUrl = await listen(collector)
    })
    afterAll(async () => {
      for (const close of closers.splice(0)) await close()
      collector.closeAllConnections()
      await new Promise((resolve) => collector.close(resolve))
    })

    async function start(release: string | undefined) {
      const client = createClient({
        baseUrl: collectorUrl,
        apiKey: `tis_${release}`,
        environment: 'e2e',
        autoFlush: false,
        ...(release ? { release } : {}),
      })
      const app = express()
      app.use(expressMiddleware(client, { ignoreRoutes: ['/health'] }))
      app.get('/health', (_req, res) => res.send('ok'))
      app.get('/ok', (_req, res) => res.send('ok'))
      app.get('/user/:id', (req, res) => {
        setRequestUser(req.params['id'])
        res.send('hello')
      })
      app.get('/handled', (_req, res) => {
        client.captureException(new Error('handled, answered 200'))
        res.send('recovered')
      })
      app.get('/user/:id/boom', (req) => {
        setRequestUser(req.params['id'])
        throw new Error('unhandled')
      })
      app.get('/boom', () => {
        throw new Error('unhandled')
      })
      app.get('/teapot', (_req, _res, next) =>
        next(Object.assign(new Error('no'), { status: 418 })),
      )
      app.use(expressErrorHandler(client))
      const answer: ErrorRequestHandler = (error, _req, res, _next) => {
        res.status((error as { status?: number }).status ?? 500).send('failed')
      }
      app.use(answer)
      const server = app.listen(0)
      await new Promise((resolve) => server.once('listening', resolve))
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      closers.push(() => new Promise((resolve) => server.close(resolve)))
      const get = async (...paths: string[]) => {
        for (const path of paths) await (await fetch(url + path)).text()
      }
      return { client, get }
    }

    const sessionBodies = (key: string) =>
      posted.filter((p) => p.path === '/api/v1/sessions' && p.auth === `Bearer ${key}`)

    /** The counts of each user (`-` for none) summed over the minutes. */
    function totals(aggregates: Body[]) {
      const out: Record<string, Record<string, number>> = {}
      for (const { started, did, ...counts } of aggregates) {
        expect(started).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/)
        const user = out[did ?? '-'] ?? {}
        out[did ?? '-'] = user
        for (const [k, n] of Object.entries(counts)) user[k] = (user[k] ?? 0) + (n as number)
      }
      return out
    }

    it('flush sends one aggregate: exited, errored, crashed, per minute and user', async () => {
      const release = `agg-${major}-${Date.now()}`
      const { client, get } = await start(release)
      await get(
        '/ok',
        '/ok',
        '/handled',
        '/boom',
        '/teapot',
        '/health',
        '/user/u1',
        '/user/u1/boom',
      )
      expect(sessionBodies(`tis_${release}`)).toHaveLength(0)
      await client.flush(5000)
      const bodies = sessionBodies(`tis_${release}`)
      expect(bodies).toHaveLength(1)
      const { sessions } = bodies[0]!.body
      expect(Object.keys(bodies[0]!.body)).toEqual(['sessions'])
      expect(sessions.attrs).toEqual({ release, environment: 'e2e' })
      expect(totals(sessions.aggregates)).toEqual({
        // /health is ignored; the 418 was the client's fault: it exited.
        '-': { exited: 3, errored: 1, crashed: 1 },
        u1: { exited: 1, crashed: 1 },
      })
      // Nothing new: the next flush sends no aggregate.
      await client.flush(5000)
      expect(sessionBodies(`tis_${release}`)).toHaveLength(1)
    })

    it('close sends what is left, and no process session ever goes out', async () => {
      const release = `close-${major}-${Date.now()}`
      const { client, get } = await start(release)
      await get('/handled')
      await client.close(5000)
      const bodies = sessionBodies(`tis_${release}`).map((p) => p.body)
      expect(bodies).toEqual([
        {
          sessions: {
            aggregates: [{ started: expect.any(String), errored: 1 }],
            attrs: { release, environment: 'e2e' },
          },
        },
      ])
    })

    it('without a release no session is sent', async () => {
      const { client, get } = await start(undefined)
      await get('/ok', '/boom')
      await client.close(5000)
      expect(sessionBodies('tis_undefined')).toHaveLength(0)
      // The events themselves still went out, to the same server.
      expect(posted.filter((p) => p.auth === 'Bearer tis_undefined').length).toBeGreaterThan(0)
    })
  })
}
