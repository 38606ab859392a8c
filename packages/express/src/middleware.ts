import type { Client } from '@tis/sdk'
import type { Request, RequestHandler, Response } from 'express'
import {
  openRequest,
  type RequestState,
  requestScope,
  runInRequest,
  runOutside,
  stateOf,
} from './context'
import type { ExpressOptions } from './options'
import { isIgnored, pathOf, routeOf, trackRoute, UNMATCHED } from './route'
import { requestSessions } from './sessions'

/** The status recorded for a request whose client closed the connection before the response finished (nginx's "client closed request"). */
export const ABORTED_STATUS = 499

/** The transaction name of a request: method and route pattern, e.g. `GET /orders/:id`. */
export const transactionName = (req: Request, route: string | undefined): string =>
  `${String(req.method).toUpperCase()} ${route ?? UNMATCHED}`

const ms = (value: number) => Math.max(0, Math.round(value * 1000) / 1000)

interface Exchange {
  req: Request
  res: Response
  state: RequestState
  aborted: boolean
  count: ReturnType<typeof requestSessions> | undefined
}

function record(client: Client, options: ExpressOptions, exchange: Exchange) {
  const { req, res, state, aborted, count } = exchange
  const route = routeOf(req)
  const path = pathOf(req)
  if (isIgnored(options.ignoreRoutes, route, path)) return
  count?.(state.outcome ?? 'exited', state.userId?.toString())
  const name = transactionName(req, route)
  const durationMs = ms(performance.now() - state.start)
  const status = aborted ? ABORTED_STATUS : res.statusCode
  const request = { method: String(req.method).toUpperCase(), route: route ?? UNMATCHED, path }
  const { traceId, requestId, spanId, parentSpanId } = state
  runOutside(() => {
    client.captureTransaction(name, durationMs, {
      traceId,
      requestId,
      status,
      context: {
        request,
        status_code: status,
        ...(aborted ? { aborted: true, response: { status_code: res.statusCode } } : {}),
        ...(spanId ? { span_id: spanId } : {}),
      },
    })
    if (!spanId) return
    client.captureSpan(name, durationMs, {
      traceId,
      requestId,
      spanId,
      ...(parentSpanId ? { parentSpanId } : {}),
      kind: 'server',
      startedAt: state.startedAt,
      status,
      context: { request, ...(aborted ? { aborted: true } : {}) },
    })
  })
}

/**
 * Express 4 and 5 middleware: one `transaction` event per request, named by method and route
 * pattern, with its duration, status, request id and trace id; with `captureRequestSpans`, also
 * a root span of kind `server`. Handlers run inside the request's context, so captures made
 * there carry its ids (it installs a scope provider on `client` through `setScope`). Records are
 * captured after the response (`finish`, or `close` for an aborted request); it never throws and
 * never delays the response. Mount it before the routes.
 */
export function expressMiddleware(client: Client, options: ExpressOptions = {}): RequestHandler {
  let count: ReturnType<typeof requestSessions> | undefined
  try {
    client.setScope(requestScope)
    if (options.sessions !== false) count = requestSessions(client)
  } catch {
    // a client without setScope or sessions (an older @tis/sdk) still gets transactions
  }
  return function tisMiddleware(req, res, next) {
    // Mounted twice (app and router): the first one records the request.
    if (stateOf(req)) return next()
    let state: RequestState
    try {
      state = openRequest(req, options)
      trackRoute(req)
      let done = false
      const finish = (aborted: boolean) => {
        if (done) return
        done = true
        try {
          record(client, options, { req, res, state, aborted, count })
        } catch {
          // the SDK must not throw into the host's event loop
        }
      }
      res.once('finish', () => finish(false))
      res.once('close', () => finish(!res.writableFinished))
    } catch {
      next()
      return
    }
    runInRequest(state, () => next())
  }
}
