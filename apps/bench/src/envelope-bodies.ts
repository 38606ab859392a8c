import { randomUUID } from 'node:crypto'
import { BENCH_EVENT_BODY } from './bench-event'

// The two bodies of the envelope comparison (issue 22): the bench's native event and a Sentry
// envelope carrying the same error as @sentry/node sends it, each with a fresh event id per
// request (idempotency dedupes by it). Both are templates split at the id once, so making a body
// costs the load generator the same few string joins on either side.

/** What @sentry/node calls itself in envelopes and in `X-Sentry-Auth`. */
export const SENTRY_SDK = { name: 'sentry.javascript.node', version: '11.12.0' } as const

const ID = '@@EVENT_ID@@'

/** A body maker: the template's parts around the id, joined with a new id per call. */
function maker(template: string, id: () => string): () => string {
  const parts = template.split(ID)
  return () => parts.join(id())
}

const hex = () => randomUUID().replaceAll('-', '')

/** `POST /api/v1/ingest_events` bodies: the bench event with a new `event_id` (a UUID) each. */
export function nativeBodies(): () => string {
  const { event } = JSON.parse(BENCH_EVENT_BODY) as { event: Record<string, unknown> }
  return maker(JSON.stringify({ event: { ...event, event_id: ID } }), randomUUID)
}

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

/**
 * `POST /api/<number>/envelope/` bodies: the envelope header (event_id, sent_at, sdk, trace), the
 * `event` item header and the event @sentry/node sends for the bench's TypeError (exception with
 * frames, request, tags, contexts, sdk), with a new event id (32 hex) each.
 */
export function envelopeBodies(dsn: string): () => string {
  const now = Date.now()
  const trace = { trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', span_id: 'a3ce929d0e0e4736' }
  const header = {
    event_id: ID,
    sent_at: new Date(now).toISOString(),
    sdk: SENTRY_SDK,
    trace: {
      environment: 'production',
      release: 'api@1.42.0',
      public_key: keyOfDsn(dsn),
      ...trace,
    },
  }
  const event = {
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
    event_id: ID,
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
  const template = [header, { type: 'event' }, event].map((j) => JSON.stringify(j)).join('\n')
  return maker(template, hex)
}

/** The public key of a DSN (`<scheme>://<key>@<host>/<number>`). */
export function keyOfDsn(dsn: string): string {
  return new URL(dsn).username
}

/** The headers @sentry/node sends with an envelope to the project of `dsn`. */
export function sentryHeaders(dsn: string): Record<string, string> {
  return {
    'content-type': 'application/x-sentry-envelope',
    'x-sentry-auth': `Sentry sentry_version=7, sentry_key=${keyOfDsn(dsn)}, sentry_client=${SENTRY_SDK.name}/${SENTRY_SDK.version}`,
  }
}

/** The envelope path of the project of `dsn`: `/api/<number>/envelope/`. */
export const envelopePath = (dsn: string) =>
  `/api/${new URL(dsn).pathname.split('/').pop()}/envelope/`
