import { describe, expect, it } from 'vitest'
import { parseEventEnvelope } from '../event'
import { sentryEventEnvelope } from './event'

// An error event as @sentry/node 8 sends it (trimmed): an exception with a cause, in-app and
// library frames (oldest first), request, user, tags, trace context and breadcrumbs.
const ERROR_EVENT = {
  event_id: '9ec79c33ec9942ab8353589fcb2e04dc',
  timestamp: 1764165600.123,
  platform: 'node',
  level: 'error',
  environment: 'production',
  release: 'shop@1.4.2',
  server_name: 'web-1',
  transaction: 'GET /orders/:id',
  exception: {
    values: [
      { type: 'Error', value: 'connection reset' },
      {
        type: 'TypeError',
        value: "Cannot read properties of undefined (reading 'id')",
        mechanism: { type: 'onuncaughtexception', handled: false },
        stacktrace: {
          frames: [
            {
              filename: 'node:internal/process',
              function: 'processTicks',
              lineno: 1,
              in_app: false,
            },
            {
              filename: '/app/src/server.js',
              abs_path: '/app/src/server.js',
              function: 'handle',
              lineno: 40,
              colno: 7,
              in_app: true,
            },
            {
              filename: '/app/src/orders.js',
              abs_path: '/app/src/orders.js',
              function: 'loadOrder',
              lineno: 12,
              colno: 19,
              in_app: true,
              context_line: '  return order.id',
            },
          ],
        },
      },
    ],
  },
  request: {
    method: 'GET',
    url: 'https://shop.test/orders/17',
    query_string: 'a=1',
    headers: { 'user-agent': 'curl' },
  },
  user: { id: 'u-42', email: 'ada@example.com' },
  tags: { region: 'eu-west-1', retries: 3 },
  contexts: {
    trace: { trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', span_id: '00f067aa0ba902b7' },
    runtime: { name: 'node', version: 'v20.20.2' },
  },
  breadcrumbs: {
    values: Array.from({ length: 60 }, (_, i) => ({ message: `b${i}`, timestamp: 1764165600 })),
  },
  sdk: { name: 'sentry.javascript.node', version: '8.55.0' },
}

describe('sentryEventEnvelope', () => {
  it('maps an error event: message, frames innermost first, trace, user, request, tags', () => {
    const envelope = sentryEventEnvelope(ERROR_EVENT)
    const parsed = parseEventEnvelope(envelope)
    if (!parsed.ok) throw new Error(JSON.stringify(parsed))
    const e = parsed.value
    expect(e).toMatchObject({
      event_type: 'error',
      event_id: '9ec79c33-ec99-42ab-8353-589fcb2e04dc',
      message: "TypeError: Cannot read properties of undefined (reading 'id')",
      level: 'error',
      occurred_at: '2025-11-26T14:00:00.123Z',
      environment: 'production',
      release: 'shop@1.4.2',
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
      span_id: '00f067aa0ba902b7',
      user_id: 'u-42',
      transaction_name: 'GET /orders/:id',
      fingerprint: 'TypeError loadOrder@/app/src/orders.js handle@/app/src/server.js',
    })
    expect(e.context.exception).toMatchObject({
      exception_class: 'TypeError',
      mechanism: { type: 'onuncaughtexception', handled: false },
      chain: [{ type: 'Error', value: 'connection reset' }],
    })
    const frames = (e.context.exception as { frames: unknown[] }).frames
    expect(frames[0]).toEqual({
      function: 'loadOrder',
      filename: '/app/src/orders.js',
      lineno: 12,
      colno: 19,
      in_app: true,
      context_line: '  return order.id',
    })
    expect(frames).toHaveLength(3)
    expect(e.context.request).toMatchObject({ method: 'GET', url: 'https://shop.test/orders/17' })
    expect(e.context.tags).toEqual({ region: 'eu-west-1', retries: '3' })
    expect((e.context['breadcrumbs'] as unknown[]).length).toBe(50)
  })

  it('maps a message event and honours a custom fingerprint', () => {
    const parsed = parseEventEnvelope(
      sentryEventEnvelope({
        event_id: 'a'.repeat(32),
        level: 'info',
        logentry: { message: 'cache warmed in %s ms', formatted: 'cache warmed in 12 ms' },
        fingerprint: ['cache', 'warm'],
        timestamp: '2026-11-26T14:00:00.5',
      }),
    )
    if (!parsed.ok) throw new Error(JSON.stringify(parsed))
    expect(parsed.value).toMatchObject({
      event_type: 'error',
      message: 'cache warmed in 12 ms',
      level: 'info',
      fingerprint: 'cache | warm',
      occurred_at: '2026-11-26T14:00:00.500Z',
    })
  })

  it('leaves grouping by message to a {{ default }} fingerprint and to frames not in the app', () => {
    const withDefault = sentryEventEnvelope({ ...ERROR_EVENT, fingerprint: ['{{ default }}'] })
    expect(withDefault.event['fingerprint']).toBe(
      ERROR_EVENT.exception.values[1] &&
        'TypeError loadOrder@/app/src/orders.js handle@/app/src/server.js',
    )
    const mixed = sentryEventEnvelope({ ...ERROR_EVENT, fingerprint: ['{{ default }}', 'eu'] })
    expect(mixed.event).not.toHaveProperty('fingerprint')
    const noApp = sentryEventEnvelope({
      exception: {
        values: [{ type: 'Error', value: 'x', stacktrace: { frames: [{ function: 'f' }] } }],
      },
    })
    expect(noApp.event).not.toHaveProperty('fingerprint')
    expect(noApp.event['message']).toBe('Error: x')
  })

  it("groups a browser's frames by the script's path, not its URL's origin or query", () => {
    const fingerprintFrom = (url: string) =>
      sentryEventEnvelope({
        exception: {
          values: [
            {
              type: 'TypeError',
              value: 'x',
              stacktrace: {
                frames: [
                  { function: 'checkout', filename: url, abs_path: url, in_app: true },
                  { function: 'loadOrder', filename: 'app:///app.js', in_app: true },
                  { function: 'f', filename: '<anonymous>', in_app: true },
                ],
              },
            },
          ],
        },
      }).event['fingerprint']
    const expected = 'TypeError f@<anonymous> loadOrder@/app.js checkout@/static/app.js'
    expect(fingerprintFrom('https://www.shop.example/static/app.js?v=3f2a#x')).toBe(expected)
    expect(fingerprintFrom('http://127.0.0.1:8080/static/app.js')).toBe(expected)
    expect(fingerprintFrom('/static/app.js')).toBe(expected)
    expect(fingerprintFrom('https://cdn.example')).toBe(
      'TypeError f@<anonymous> loadOrder@/app.js checkout@/',
    )
  })

  it("keeps debug_meta's source-map images (capped) in context.debug_meta for the resolver", () => {
    const image = (n: number) => ({
      type: 'sourcemap',
      code_file: `https://shop.example/assets/${n}.js`,
      debug_id: `f6252536-61a8-5fd0-8deb-93c12ba4e${String(n).padStart(3, '0')}`,
    })
    const mapped = sentryEventEnvelope({
      ...ERROR_EVENT,
      debug_meta: {
        images: [
          { type: 'macho', code_file: '/usr/lib/x.dylib', debug_id: 'x' },
          { type: 'sourcemap', code_file: 'a.js' },
          ...Array.from({ length: 120 }, (_, n) => image(n)),
        ],
      },
    }).event
    const images = (mapped['context'] as { debug_meta: { images: unknown[] } }).debug_meta.images
    expect(images).toHaveLength(100)
    expect(images[0]).toEqual(image(0))
    const parsed = parseEventEnvelope({ event: mapped })
    if (!parsed.ok) throw new Error(JSON.stringify(parsed))
    expect(parsed.value.context['debug_meta']).toEqual({ images })
    const none = sentryEventEnvelope({ ...ERROR_EVENT, debug_meta: { images: [{ type: 'elf' }] } })
    expect(none.event['context']).not.toHaveProperty('debug_meta')
  })

  it('tolerates mistyped and missing fields: an event of nothing is still an event', () => {
    const parsed = parseEventEnvelope(
      sentryEventEnvelope({
        event_id: 'not-hex',
        timestamp: 'yesterday',
        tags: 'x',
        user: 7,
        exception: { values: 'no' },
      }),
    )
    if (!parsed.ok) throw new Error(JSON.stringify(parsed))
    expect(parsed.value).toMatchObject({
      event_type: 'error',
      message: '<no message>',
      level: 'error',
    })
    expect(parsed.value).not.toHaveProperty('event_id')
  })
})

describe('sentryEventEnvelope: what the data scrubber then filters', () => {
  it("keeps a frame's local variables, bounded", () => {
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`v${i}`, i]))
    const deep = { a: { b: { c: { d: { e: 1 } } } } }
    const { event } = sentryEventEnvelope({
      exception: {
        values: [
          {
            type: 'ValueError',
            stacktrace: {
              frames: [
                { function: 'outer', vars: many },
                {
                  function: 'charge',
                  vars: {
                    password: 'hunter2',
                    amount: 12.5,
                    note: 'x'.repeat(2_000),
                    items: Array.from({ length: 30 }, (_, i) => i),
                    deep,
                  },
                },
              ],
            },
          },
        ],
      },
    })
    const frames = (event['context'] as { exception: { frames: Array<{ vars?: object }> } })
      .exception.frames
    const inner = frames[0]!.vars as Record<string, unknown>
    expect(inner['password']).toBe('hunter2') // the scrubber's job, not the mapping's
    expect(inner['amount']).toBe(12.5)
    expect((inner['note'] as string).length).toBe(512)
    expect(inner['items']).toHaveLength(20)
    expect(inner['deep']).toEqual({ a: { b: { c: '…' } } })
    expect(Object.keys(frames[1]!.vars!)).toHaveLength(50)
  })

  it('keeps the request body, cookies and environment; never takes {{auto}} for a user id', () => {
    const { event } = sentryEventEnvelope({
      message: 'boom',
      user: { ip_address: '{{auto}}' },
      request: {
        url: 'https://shop.example/pay',
        data: { card: '4111 1111 1111 1111' },
        cookies: [['sessionid', 'abc']],
        env: { REMOTE_ADDR: '203.0.113.7' },
        headers: [['Cookie', 'sessionid=abc']],
      },
    })
    expect(event['user_id']).toBeUndefined()
    expect((event['context'] as { request: object }).request).toEqual({
      url: 'https://shop.example/pay',
      data: { card: '4111 1111 1111 1111' },
      cookies: { sessionid: 'abc' },
      env: { REMOTE_ADDR: '203.0.113.7' },
      headers: { Cookie: 'sessionid=abc' },
    })
    const withIp = sentryEventEnvelope({ message: 'boom', user: { ip_address: '203.0.113.7' } })
    expect(withIp.event['user_id']).toBe('203.0.113.7')
  })
})
