import { createHash, randomBytes, randomUUID } from 'node:crypto'

// Request bodies of Logister's own clients, built the way their payload code builds them (each
// function names its source), so the suites test what those clients really send.

type Fields = Record<string, unknown>

const hex = (bytes: number) => randomBytes(bytes).toString('hex')

/** logister-ruby's static context: `Reporter#initialize` (`@static_context`). */
const RUBY_STATIC = { environment: 'production', service: 'shop', release: 'v2.8.0' }

/**
 * A check-in as logister-ruby sends it: lib/logister/reporter.rb `report_check_in` through
 * `build_payload`, published by lib/logister/client.rb `send_request` as `{event: payload}` with
 * a `uuid`. Every check-in field sits in `context`.
 */
export function rubyCheckIn(
  slug: string,
  status: string,
  fields: Fields & { occurred_at: string },
) {
  const { occurred_at, ...context } = fields
  return {
    event: {
      event_type: 'check_in',
      level: status === 'error' ? 'error' : 'info',
      message: `${slug} ${status}`,
      fingerprint: createHash('sha256').update(`checkin:${slug}`).digest('hex').slice(0, 32),
      occurred_at,
      context: {
        ...RUBY_STATIC,
        check_in_slug: slug,
        check_in_status: status,
        ...context,
      },
      uuid: randomUUID(),
    },
  }
}

/**
 * A span as logister-ruby 0.2.8 sends it. Its `report_span` is not in the stored client sources;
 * its keywords are those Logister's server passes it (taimoorq/logister
 * app/services/logister/sample_telemetry_reporter.rb), and the payload follows `build_payload`,
 * with the span fields merged into `context` as `report_check_in` merges its own.
 */
export function rubySpan(name: string, fields: Fields) {
  return {
    event: {
      event_type: 'span',
      level: 'info',
      message: name,
      occurred_at: new Date().toISOString(),
      context: { ...RUBY_STATIC, ...fields, tags: { queue: 'default' } },
      uuid: randomUUID(),
    },
  }
}

/**
 * An error as logister-ruby's Rack middleware reports it: lib/logister/middleware.rb
 * `build_request_context` merged with lib/logister/context_helpers.rb `trace_context` (the trace
 * id only in `context.trace.traceId`), then reporter.rb `report_error`.
 */
export function rubyRequestError(traceId: string, requestId: string) {
  const request = {
    clientIp: '10.0.0.7',
    headers: { 'User-Agent': 'curl/8', 'X-Request-Id': requestId },
    httpMethod: 'GET',
    httpVersion: 'HTTP/1.1',
    params: { controller: 'orders', action: 'show', id: '7' },
    railsAction: 'orders#show',
    requestId,
    url: 'https://shop.test/orders/7',
  }
  return {
    event: {
      event_type: 'error',
      level: 'error',
      message: 'RuntimeError: boom',
      fingerprint: hex(16),
      occurred_at: new Date().toISOString(),
      context: {
        ...RUBY_STATIC,
        request_id: requestId,
        path: '/orders/7',
        method: 'GET',
        clientIp: '10.0.0.7',
        headers: request.headers,
        httpMethod: 'GET',
        requestId,
        url: request.url,
        response: { status: 500, format: 'html', durationMs: 12.5 },
        route: { name: 'order', pathTemplate: '/orders/:id(.:format)', controller: 'orders' },
        request,
        trace: { traceId, spanId: hex(8), sampled: true, requestId },
        exception: { class: 'RuntimeError', message: 'boom', backtrace: ['app/x.rb:1'] },
      },
      uuid: randomUUID(),
    },
  }
}

/** logister-js src/express.ts `serializeRequestContext` of one request. */
function jsRequest(traceId: string, requestId: string, path: string) {
  return {
    request_id: requestId,
    trace_id: traceId,
    span_id: hex(8),
    method: 'GET',
    url: path,
    path,
    route: path,
    query: {},
    headers: { 'user-agent': 'node' },
    remote_ip: '::1',
    user_agent: 'node',
  }
}

/**
 * The transaction logister-js's Express middleware captures on `finish` (src/express.ts
 * `createLogisterMiddleware` → src/client.ts `captureTransaction`): the response status only in
 * `context.http.status_code`.
 */
export function jsExpressTransaction(o: {
  traceId: string
  requestId: string
  path: string
  statusCode: number
  at: string
}) {
  const name = `GET ${o.path}`
  return {
    event: {
      event_type: 'transaction',
      level: 'info',
      message: name,
      occurred_at: o.at,
      context: {
        request: jsRequest(o.traceId, o.requestId, o.path),
        http: { status_code: o.statusCode },
        transaction_name: name,
        duration_ms: 12,
        environment: 'production',
        release: '1.4.0',
        trace_id: o.traceId,
        request_id: o.requestId,
      },
    },
  }
}

/**
 * The error logister-js's Express error handler captures (src/express.ts
 * `createLogisterErrorHandler` → src/client.ts `captureException`): the trace id only in
 * `context.request.trace_id`.
 */
export function jsExpressError(traceId: string, requestId: string, path: string) {
  return {
    event: {
      event_type: 'error',
      level: 'error',
      message: 'kaboom',
      occurred_at: new Date().toISOString(),
      context: {
        request: jsRequest(traceId, requestId, path),
        http: { status_code: 500 },
        exception: {
          class: 'Error',
          qualified_class: 'Error',
          message: 'kaboom',
          stack: 'Error: kaboom',
        },
        environment: 'production',
        release: '1.4.0',
      },
    },
  }
}

/**
 * A span as logister-js sends it: src/client.ts `captureSpan` (top-level span fields, and the
 * same in `context`, `span_kind` included; `level: "error"` when `status` is `error`).
 */
export function jsSpan(name: string, o: { traceId: string; kind: string; status: 'ok' | 'error' }) {
  const spanId = hex(8)
  const startedAt = new Date(Date.now() - 40).toISOString()
  const span = {
    name,
    trace_id: o.traceId,
    span_id: spanId,
    kind: o.kind,
    status: o.status,
    duration_ms: 40,
    started_at: startedAt,
  }
  return {
    event: {
      event_type: 'span',
      level: o.status === 'error' ? 'error' : 'info',
      message: name,
      occurred_at: startedAt,
      ...span,
      context: { ...span, span_kind: o.kind, environment: 'production', release: '1.4.0' },
    },
  }
}

/** A check-in as logister-js sends it: src/client.ts `checkIn` (time as `checked_at` only). */
export function jsCheckIn(slug: string, checkedAt: string) {
  return {
    check_in: {
      slug,
      status: 'ok',
      environment: 'production',
      release: '1.4.0',
      duration_ms: 800,
      checked_at: checkedAt,
      expected_interval_seconds: 3600,
      context: { environment: 'production', release: '1.4.0' },
    },
  }
}
