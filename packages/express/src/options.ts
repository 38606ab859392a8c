import type { Request } from 'express'

/** Options of `expressMiddleware` and `expressErrorHandler` (one object can serve both). */
export interface ExpressOptions {
  /**
   * Adds a root span of kind `server` per request (continuing an incoming W3C `traceparent`);
   * spans captured inside the request without an explicit parent become its children.
   * @default false
   */
  readonly captureRequestSpans?: boolean
  /**
   * Request-mode release-health sessions (with a client `release`): the middleware drops the
   * client's process session and counts each request instead, as `exited`, `errored` (an error
   * was captured while it was handled) or `crashed` (the error handler saw an error of status
   * 500 or more), per minute and user (`setRequestUser`), sent as one aggregate a minute
   * and on `flush()`/`close()`. Ignored routes are not counted. `false` keeps the process session.
   * @default true
   */
  readonly sessions?: boolean
  /**
   * Requests recorded with neither transaction nor span, such as health checks. A string is
   * compared with the route pattern (`/health`, `/orders/:id`) and with the path; a RegExp is
   * tested against both. Errors of these routes are still reported.
   * @default []
   */
  readonly ignoreRoutes?: readonly (string | RegExp)[]
  /**
   * Decides which errors `expressErrorHandler` reports, given the error, the HTTP status it
   * resolves to (`err.status`, `err.statusCode`, else 500) and the request. If it throws, the
   * default applies.
   * @default status >= 500
   */
  readonly shouldCaptureError?: (error: unknown, status: number, req: Request) => boolean
  /**
   * Request headers copied into an error's `context.request.headers`; every other header is
   * left out. Case-insensitive.
   * @default DEFAULT_ALLOWED_HEADERS
   */
  readonly allowedHeaders?: readonly string[]
  /**
   * Query parameters whose values an error's `context.request.query_string` shows as
   * `[Filtered]`, tested against the decoded parameter name.
   * @default DEFAULT_REDACTED_QUERY_PARAMS
   */
  readonly redactQueryParams?: RegExp
  /**
   * The request header holding the caller's request id; without one, a UUID is generated.
   * @default 'x-request-id'
   */
  readonly requestIdHeader?: string
}
