import type { Client } from '@tis/sdk'
import type { ErrorRequestHandler, Request, Response } from 'express'
import { openRequest, stateOf } from './context'
import type { ExpressOptions } from './options'
import {
  DEFAULT_ALLOWED_HEADERS,
  DEFAULT_REDACTED_QUERY_PARAMS,
  pickHeaders,
  redactQuery,
} from './redact'
import { pathOf, queryOf, routeOf } from './route'

const httpError = (code: unknown): code is number =>
  typeof code === 'number' && Number.isInteger(code) && code >= 400 && code <= 599

/**
 * The HTTP status an error resolves to, as Express's final handler answers it: `err.status`,
 * else `err.statusCode` (each only if 4xx or 5xx), else the response's status if it is an
 * error status already, else 500.
 */
export function errorStatus(error: unknown, responseStatus?: number): number {
  const { status, statusCode } = (typeof error === 'object' && error !== null ? error : {}) as {
    status?: unknown
    statusCode?: unknown
  }
  for (const code of [status, statusCode, responseStatus]) if (httpError(code)) return code
  return 500
}

const reported = new WeakSet<object>()

interface Exchange {
  readonly req: Request
  readonly res: Response
}

function shouldCapture(options: ExpressOptions, error: unknown, status: number, req: Request) {
  if (options.shouldCaptureError) {
    try {
      return options.shouldCaptureError(error, status, req) === true
    } catch {
      // a throwing predicate falls back to the default
    }
  }
  return status >= 500
}

function report(client: Client, options: ExpressOptions, error: unknown, exchange: Exchange) {
  const { req, res } = exchange
  const status = errorStatus(error, res.statusCode)
  const seen = stateOf(req)
  if (seen && status >= 500) seen.outcome = 'crashed'
  if (!shouldCapture(options, error, status, req)) return
  // Nested error handlers (a router's and the app's) see the same error object twice.
  if (typeof error === 'object' && error !== null) {
    if (reported.has(error)) return
    reported.add(error)
  }
  const state = seen ?? openRequest(req, options)
  const route = routeOf(req)
  const query = queryOf(req)
  client.captureException(error, {
    traceId: state.traceId,
    requestId: state.requestId,
    context: {
      status_code: status,
      request: {
        method: String(req.method).toUpperCase(),
        path: pathOf(req),
        ...(route ? { route } : {}),
        ...(query
          ? {
              query_string: redactQuery(
                query,
                options.redactQueryParams ?? DEFAULT_REDACTED_QUERY_PARAMS,
              ),
            }
          : {}),
        headers: pickHeaders(req.headers, options.allowedHeaders ?? DEFAULT_ALLOWED_HEADERS),
        request_id: state.requestId,
      },
    },
  })
}

/**
 * Express 4 and 5 error handler: reports errors whose status is 500 or more (or as
 * `shouldCaptureError` decides) with the request's method, path, route, redacted query string
 * and allow-listed headers, then calls `next(err)` so the application's own handling goes on.
 * Mount it after the routes, before your own error handlers. It never throws.
 */
export function expressErrorHandler(
  client: Client,
  options: ExpressOptions = {},
): ErrorRequestHandler {
  return function tisErrorHandler(error, req, res, next) {
    try {
      report(client, options, error, { req, res })
    } catch {
      // reporting must not change how the application answers
    }
    next(error)
  }
}
