import { describe, expect, it } from 'vitest'
import { parseEventEnvelope } from './event'
import { acceptedValue } from './test-results'

const contextOf = (type: string, context: object) =>
  acceptedValue(
    parseEventEnvelope({
      event: { event_type: type, ...(type === 'span' ? { name: 's' } : { message: 'm' }), context },
    }),
  ).context

// The rule: the documented keys (section 2.2's names, and the documented keys
// of context.request and context.exception) are renamed to snake_case; every other key, at every
// depth, is the user's and kept exactly as sent. Checked before the change: context.request
// requestId → request_id and httpMethod/clientIp kept already held; what deviated was a span or
// check-in field on another event type (startedAt, Kind, checkInSlug on a log), renamed and
// validated as if documented there.
describe('nested camelCase keys', () => {
  const rows: Array<[string, string, Record<string, unknown>, Record<string, unknown>]> = [
    ['context.requestId → request_id', 'error', { requestId: 'r' }, { request_id: 'r' }],
    ['context.Service → service', 'log', { Service: 'api' }, { service: 'api' }],
    ['context.commitSha → commit_sha', 'log', { commitSha: 'ABCDEF1' }, { commit_sha: 'abcdef1' }],
    [
      'context.request.requestId → request_id',
      'error',
      { request: { requestId: 'r' } },
      { request: { request_id: 'r' } },
    ],
    [
      'context.request.queryString → query_string',
      'error',
      { request: { queryString: 'a=1' } },
      { request: { query_string: 'a=1' } },
    ],
    [
      'context.exception.exceptionClass → exception_class',
      'error',
      { exception: { exceptionClass: 'E' } },
      { exception: { exception_class: 'E' } },
    ],
    [
      'context.request.httpMethod and clientIp: the user’s own',
      'error',
      { request: { httpMethod: 'GET', clientIp: '10.0.0.1' } },
      { request: { httpMethod: 'GET', clientIp: '10.0.0.1' } },
    ],
    [
      'context.httpMethod and clientIp',
      'error',
      { httpMethod: 'GET', clientIp: '::1' },
      { httpMethod: 'GET', clientIp: '::1' },
    ],
    [
      'keys in headers and params',
      'error',
      { request: { headers: { 'X-Request-Id': 'a', userAgent: 'u' }, params: { userId: 1 } } },
      { request: { headers: { 'X-Request-Id': 'a', userAgent: 'u' }, params: { userId: 1 } } },
    ],
    [
      'keys in metadata',
      'log',
      { metadata: { requestId: 1, traceId: 2 } },
      { metadata: { requestId: 1, traceId: 2 } },
    ],
    [
      'keys in tags',
      'log',
      { tags: { userId: 'u', TraceId: 't' } },
      { tags: { userId: 'u', TraceId: 't' } },
    ],
    [
      'keys in trace',
      'error',
      { trace: { traceId: 't', spanId: 's', requestId: 'r' } },
      { trace: { traceId: 't', spanId: 's', requestId: 'r' } },
    ],
    [
      'keys of unknown objects, at any depth',
      'error',
      {
        response: { durationMs: 1, contentType: 'x' },
        route: { pathTemplate: '/a', deep: { userId: 1 } },
      },
      {
        response: { durationMs: 1, contentType: 'x' },
        route: { pathTemplate: '/a', deep: { userId: 1 } },
      },
    ],
    [
      'exception keys other than exception_class',
      'error',
      { exception: { class: 'E', backtraceLines: [] } },
      { exception: { class: 'E', backtraceLines: [] } },
    ],
    [
      'span fields on a log',
      'log',
      { startedAt: 'x', spanId: 's', Kind: 'k' },
      { startedAt: 'x', spanId: 's', Kind: 'k' },
    ],
    [
      'span fields on a span',
      'span',
      { spanId: 's', parentSpanId: 'p' },
      { span_id: 's', parent_span_id: 'p' },
    ],
    ['check-in fields on a log', 'log', { checkInSlug: 'j' }, { checkInSlug: 'j' }],
    [
      'check-in fields on a check_in event',
      'check_in',
      { checkInSlug: 'j' },
      { check_in_slug: 'j' },
    ],
  ]

  it.each(rows)('%s', (_rule, type, sent, expected) => {
    const context = contextOf(type, sent)
    expect(context).toMatchObject(expected)
    for (const key of Object.keys(sent)) {
      if (!(key in expected)) expect(context).not.toHaveProperty(key)
    }
  })

  it("keeps the Ruby middleware's request context as sent, but for its documented keys", () => {
    // logister-ruby lib/logister/middleware.rb build_request_context (abridged).
    const request = {
      clientIp: '10.0.0.1',
      headers: { 'User-Agent': 'curl', 'X-Request-Id': 'req-1' },
      httpMethod: 'GET',
      httpVersion: 'HTTP/1.1',
      params: { controller: 'orders', id: '7' },
      railsAction: 'orders#show',
      requestId: 'req-1',
      url: 'https://shop.test/orders/7',
    }
    const { requestId, ...userKeys } = request
    expect(contextOf('error', { request }).request).toEqual({ ...userKeys, request_id: requestId })
  })
})
