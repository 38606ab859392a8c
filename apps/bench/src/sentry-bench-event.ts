// The error of the envelope comparison as @sentry/node sends it (the payload of an `event` item),
// and its native twin: the same content as tis's Sentry mapping stores it, sent to
// `POST /api/v1/ingest_events`, which separates what the protocol costs from what the content does.

/** What @sentry/node calls itself in envelopes and in `X-Sentry-Auth`. */
export const SENTRY_SDK = { name: 'sentry.javascript.node', version: '11.12.0' } as const

/** The frames of the raised error, oldest first (as Sentry sends them). */
const FRAMES = [
  {
    filename: 'node:internal/process/task_queues',
    module: 'task_queues',
    function: 'process.processTicksAndRejections',
    lineno: 95,
    colno: 5,
    in_app: false,
  },
  {
    filename: '/app/node_modules/express/lib/router/layer.js',
    module: 'express.lib.router:layer',
    function: 'Layer.handle [as handle_request]',
    lineno: 95,
    colno: 5,
    in_app: false,
  },
  {
    filename: '/app/dist/routes/orders.js',
    abs_path: '/app/dist/routes/orders.js',
    module: 'routes:orders',
    function: 'getOrder',
    lineno: 41,
    colno: 22,
    in_app: true,
    pre_context: [
      "router.get('/orders/:id', async (req, res) => {",
      '  const order = await orders.find(req.params.id)',
    ],
    context_line: '  res.json({ id: order.customer.id, total: order.total })',
    post_context: ['})'],
  },
  {
    filename: '/app/dist/services/orders.js',
    abs_path: '/app/dist/services/orders.js',
    module: 'services:orders',
    function: 'Orders.serialize',
    lineno: 17,
    colno: 31,
    in_app: true,
    context_line: '    return { id: row.customer.id }',
  },
]

/** The trace of the event (its `contexts.trace`). */
const TRACE = { trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', span_id: 'a3ce929d0e0e4736' }

/**
 * The event @sentry/node sends for the bench's TypeError: exception with frames, request, tags,
 * contexts, sdk; `now` is the time in ms, `eventId` its id.
 */
export function sentryBenchEvent(now: number, eventId: string) {
  const trace = TRACE
  return {
    exception: {
      values: [
        {
          type: 'TypeError',
          value: "Cannot read properties of undefined (reading 'id')",
          stacktrace: { frames: FRAMES },
          mechanism: { type: 'auto.http.express', handled: false },
        },
      ],
    },
    event_id: eventId,
    level: 'error',
    platform: 'node',
    server_name: 'api-7f9c4',
    timestamp: now / 1000,
    environment: 'production',
    release: 'api@1.42.0',
    transaction: 'GET /orders/:id',
    request: {
      method: 'GET',
      url: 'https://api.acme.test/orders/17',
      headers: { host: 'api.acme.test', 'user-agent': 'curl/8.5.0', accept: '*/*' },
    },
    tags: { region: 'eu-west-1' },
    contexts: {
      trace: {
        ...trace,
        data: { 'sentry.source': 'route' },
        op: 'http.server',
        status: 'internal_error',
      },
      runtime: { name: 'node', version: 'v20.20.0' },
      app: { app_start_time: new Date(now - 3_600_000).toISOString(), app_memory: 94_371_840 },
      os: { kernel_version: '6.1.0-28-amd64', name: 'Linux', version: '6.1.0', build: '6.1.0-28' },
      device: {
        boot_time: '2026-11-20T08:00:00.000Z',
        arch: 'x64',
        memory_size: 8_323_596_288,
        free_memory: 2_147_483_648,
        processor_count: 2,
        cpu_description: 'AMD EPYC',
        processor_frequency: 2450,
      },
      culture: { locale: 'en-US', timezone: 'UTC' },
      cloud_resource: {},
    },
    sdk: {
      ...SENTRY_SDK,
      integrations: [
        'InboundFilters',
        'FunctionToString',
        'LinkedErrors',
        'RequestData',
        'Console',
        'Http',
        'NodeFetch',
        'OnUncaughtException',
        'OnUnhandledRejection',
        'ContextLines',
        'LocalVariables',
        'Context',
        'Modules',
        'Express',
      ],
      packages: [{ name: 'npm:@sentry/node', version: SENTRY_SDK.version }],
    },
  }
}

/**
 * The bench's native error event (bench-event.ts) as a Sentry SDK sends the same error: the
 * exception's type and value, level, environment, release, transaction, request, tags and trace
 * context, plus what every Sentry event carries (event id, timestamp, platform). The envelope
 * comparison's bar sends this one: the same error both ways, so the ratio is the protocol's.
 */
export function sentryBenchErrorEvent(now: number, eventId: string) {
  return {
    exception: {
      values: [{ type: 'TypeError', value: "Cannot read properties of undefined (reading 'id')" }],
    },
    event_id: eventId,
    level: 'error',
    platform: 'node',
    timestamp: now / 1000,
    environment: 'production',
    release: 'api@1.42.0',
    transaction: 'GET /orders/:id',
    request: { method: 'GET', url: 'https://api.acme.test/orders/17' },
    tags: { region: 'eu-west-1' },
    contexts: { trace: { trace_id: TRACE.trace_id, span_id: TRACE.span_id } },
  }
}

/** A Sentry frame as tis's `context.exception.frames` keeps it. */
function nativeFrame(f: (typeof FRAMES)[number]) {
  const { filename, module, lineno, colno, in_app } = f
  const path = 'abs_path' in f ? f.abs_path : filename
  const line = 'context_line' in f ? { context_line: f.context_line } : {}
  return { function: f.function, module, filename: path, lineno, colno, in_app, ...line }
}

/**
 * The native event with the content of {@link sentryBenchEvent} as tis's Sentry mapping makes it
 * (packages/schema/src/sentry/event.ts): the same fields, frames innermost first.
 */
export function nativeTwinEvent(now: number, eventId: string) {
  const sentry = sentryBenchEvent(now, eventId)
  const raised = sentry.exception.values[0] as (typeof sentry.exception.values)[number]
  const inApp = FRAMES.filter((f) => f.in_app).reverse()
  return {
    event_type: 'error',
    event_id: eventId,
    message: `${raised.type}: ${raised.value}`,
    level: 'error',
    occurred_at: new Date(now).toISOString(),
    environment: sentry.environment,
    release: sentry.release,
    fingerprint: `${raised.type} ${inApp.map((f) => `${f.function}@${f.module}`).join(' ')}`,
    trace_id: TRACE.trace_id,
    span_id: TRACE.span_id,
    transaction_name: sentry.transaction,
    context: {
      exception: {
        exception_class: raised.type,
        message: raised.value,
        mechanism: raised.mechanism,
        frames: FRAMES.map(nativeFrame).reverse(),
      },
      request: sentry.request,
      tags: sentry.tags,
      contexts: sentry.contexts,
      sdk: sentry.sdk,
      platform: sentry.platform,
      server_name: sentry.server_name,
      protocol: 'sentry',
    },
  }
}
