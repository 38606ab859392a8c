// Cost of the data scrubber per event, next to baselines measured in the same run: a plain
// structured walk of the same object (visits every value, allocates nothing), JSON.parse of its
// body and the Sentry mapping plus normalisation, which every such request pays anyway. Run with
// `npx tsx --conditions=@tis/source packages/ingest/bench/scrub.bench.ts` from the root.
// Figures are ratios: the machine is shared. No benchmark library, so the package gains no
// dependency.
import { parseEventEnvelope, sentryEventEnvelope } from '@tis/schema'
import { createScrubber, DEFAULT_SCRUB_SETTINGS } from '../src/scrub/index'

const frames = Array.from({ length: 20 }, (_, i) => ({
  filename: `/app/src/orders/handler-${i}.ts`,
  abs_path: `/app/src/orders/handler-${i}.ts`,
  function: `step${i}`,
  module: 'orders.handler',
  lineno: 10 + i,
  colno: 7,
  in_app: i >= 10,
  context_line: `    const order = await repository.find(id, { include: ['items'] }) // ${i}`,
  vars: { id: `ord_${i}`, attempt: i, options: { retry: true, timeoutMs: 2_000 } },
}))
const breadcrumbs = Array.from({ length: 10 }, (_, i) => ({
  timestamp: 1_772_360_000 + i,
  category: i % 2 === 0 ? 'http' : 'console',
  level: 'info',
  message: i % 2 === 0 ? undefined : `loaded page ${i} of the order list`,
  data:
    i % 2 === 0
      ? { method: 'GET', url: `https://api.acme.test/orders?page=${i}`, status_code: 200 }
      : { arguments: [`loaded page ${i}`] },
}))
/** A Sentry error event as a browser or Node SDK sends it, with nothing to filter. */
const sentryEvent = {
  event_id: '9f2c4e1a7b3d4f60a18293a4b5c6d7e8',
  timestamp: 1_772_360_010.5,
  platform: 'node',
  level: 'error',
  release: 'api@1.42.0',
  environment: 'production',
  server_name: 'api-7f9c',
  transaction: 'GET /orders/:id',
  exception: {
    values: [
      {
        type: 'TypeError',
        value: "Cannot read properties of undefined (reading 'id')",
        mechanism: { type: 'onunhandledrejection', handled: false },
        stacktrace: { frames },
      },
    ],
  },
  breadcrumbs: { values: breadcrumbs },
  request: {
    method: 'GET',
    url: 'https://api.acme.test/orders/17?expand=items',
    query_string: 'expand=items',
    headers: {
      host: 'api.acme.test',
      'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15',
      accept: 'application/json',
      'accept-language': 'en-GB,en;q=0.9',
      'accept-encoding': 'gzip, deflate, br',
      referer: 'https://app.acme.test/orders',
      'x-request-id': 'req-7f3a',
    },
  },
  contexts: {
    trace: {
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
      span_id: '00f067aa0ba902b7',
      op: 'http.server',
    },
    runtime: { name: 'node', version: 'v22.11.0' },
    os: { name: 'Linux', version: '6.8.0', kernel_version: '6.8.0-45-generic' },
    device: { arch: 'x64', memory_size: 17_179_869_184, cpu_description: 'AMD EPYC 7B13' },
    app: { app_start_time: '2026-03-01T09:00:00.000Z', app_memory: 182_452_224 },
  },
  tags: { region: 'eu-west-1', tier: 'gold', route: '/orders/:id' },
  user: { id: '1042', email: 'ann@acme.test' },
  extra: { orderId: 17, flags: ['beta', 'fast-checkout'] },
  sdk: { name: 'sentry.javascript.node', version: '8.40.0' },
}

const parsed = parseEventEnvelope(sentryEventEnvelope(sentryEvent))
if (!parsed.ok) throw new Error('benchmark event rejected')
const stored = parsed.value
const withSecrets = {
  ...stored,
  context: {
    ...stored.context,
    request: { ...(stored.context.request as object), headers: { authorization: 'Bearer abc' } },
    db: { url: 'postgres://app:s3cr3t@db:5432/x' },
  },
}
const body = JSON.stringify(stored)

/** Visits every value of a JSON value: the cheapest walk any scrubber must do. */
function plainWalk(value: unknown): number {
  if (typeof value !== 'object' || value === null) return typeof value === 'string' ? 1 : 0
  let n = 0
  if (Array.isArray(value)) for (const item of value) n += plainWalk(item)
  else for (const key of Object.keys(value)) n += plainWalk((value as Record<string, unknown>)[key])
  return n
}

const scrubber = createScrubber({ ...DEFAULT_SCRUB_SETTINGS, scrubIpAddresses: true })
let sink = 0

/** Mean microseconds per call over ~`ms` milliseconds (after a warm-up of the same length). */
function measure(run: () => unknown, ms = 1_000): number {
  const loop = (until: number) => {
    let calls = 0
    const start = performance.now()
    while (performance.now() - start < until) {
      for (let i = 0; i < 100; i++) if (run() === undefined) sink++
      calls += 100
    }
    return ((performance.now() - start) * 1_000) / calls
  }
  loop(ms)
  return loop(ms)
}

const rows = {
  'plain structured walk (baseline)': () => plainWalk(stored),
  'JSON.parse of the stored event (reference)': () => JSON.parse(body),
  'sentryEventEnvelope + parseEventEnvelope (reference)': () =>
    parseEventEnvelope(sentryEventEnvelope(sentryEvent)),
  'scrub: clean event (scrubIpAddresses on)': () => scrubber.event(stored),
  'scrub: event with 3 secrets (copies the changed path)': () => scrubber.event(withSecrets),
}
const base = measure(rows['plain structured walk (baseline)'])
console.log(`\n@tis/ingest scrubber benchmark: a Sentry error event mapped and normalised`)
console.log(`(${body.length} bytes of JSON, ${plainWalk(stored)} strings)\n`)
console.table(
  Object.entries(rows).map(([name, run]) => {
    const us = measure(run)
    return { case: name, 'µs/event': us.toFixed(2), 'ratio to plain walk': (us / base).toFixed(2) }
  }),
)
if (sink < 0) console.log(sink)
