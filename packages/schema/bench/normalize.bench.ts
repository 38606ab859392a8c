// Normalisations per second for a typical error event and a typical span, each next to a
// baseline measured in the same run: JSON.parse of the same body, which every request pays anyway.
// Run with `pnpm bench` (root or this package). Figures are ratios: the machine is shared.
import { Bench } from 'tinybench'
import { parseEventEnvelope } from '../src/index'

const errorEvent = {
  event: {
    eventType: 'error',
    message: "TypeError: Cannot read properties of undefined (reading 'id')\n    at handler",
    level: 'error',
    fingerprint: 'orders-handler-typeerror',
    environment: 'production',
    release: 'api@1.42.0',
    commitSha: '9f2c4e1a7b3d5f60718293a4b5c6d7e8f9a0b1c2',
    repo: 'acme/api',
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    requestId: 'req-7f3a',
    userId: 1042,
    transactionName: 'GET /orders/:id',
    context: {
      exception: {
        exception_class: 'TypeError',
        frames: Array.from({ length: 12 }, (_, i) => ({
          file: `/app/src/orders/handler-${i}.ts`,
          line: 10 + i,
          column: 7,
          function: `step${i}`,
          in_app: i < 6,
        })),
      },
      request: {
        method: 'GET',
        url: 'https://api.acme.test/orders/17?expand=items',
        route: '/orders/:id',
        headers: { 'user-agent': 'Mozilla/5.0', accept: 'application/json' },
      },
      tags: { region: 'eu-west-1', tier: 'gold' },
    },
  },
}

const span = {
  event: {
    event_type: 'span',
    name: 'SELECT orders',
    kind: 'db',
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '00f067aa0ba902b7',
    parentSpanId: 'b7ad6b7169203331',
    startedAt: '2026-03-01T10:00:00.000Z',
    endedAt: '2026-03-01T10:00:00.012Z',
    durationMs: 12.4,
    release: 'api@1.42.0',
    environment: 'production',
  },
}

const now = new Date()
const bodies = { 'error event': JSON.stringify(errorEvent), span: JSON.stringify(span) }
const bench = new Bench({ time: 1_000, warmupTime: 200 })
for (const [name, text] of Object.entries(bodies)) {
  const parsed = JSON.parse(text)
  bench.add(`${name}: JSON.parse (baseline)`, () => JSON.parse(text))
  bench.add(`${name}: parseEventEnvelope`, () => {
    if (!parseEventEnvelope(parsed, { now }).ok) throw new Error('benchmark body rejected')
  })
}
await bench.run()

const hz = (name: string) => {
  const result = bench.getTask(name)?.result
  return result && 'throughput' in result ? result.throughput.mean : Number.NaN
}
console.log('\n@tis/schema normalisation benchmark (one run, same machine)\n')
console.table(
  Object.keys(bodies).map((name) => {
    const base = hz(`${name}: JSON.parse (baseline)`)
    const norm = hz(`${name}: parseEventEnvelope`)
    return {
      body: name,
      'normalisations/s': Math.round(norm),
      'JSON.parse/s (baseline)': Math.round(base),
      'ratio to baseline': (norm / base).toFixed(2),
    }
  }),
)
