import { randomBytes } from 'node:crypto'

const hex = (bytes: number) => randomBytes(bytes).toString('hex')

/** The i-th of a mix of events as an SDK sends them: every type, traces of five spans. */
function sampleEvents(i: number): Array<Record<string, unknown>> {
  const common = {
    environment: i % 4 === 0 ? 'staging' : 'production',
    release: 'api@1.45.0',
    trace_id: hex(16),
    request_id: `req-http-${i}`,
    session_id: `session-http-${i % 7}`,
    user_id: `user-${i % 13}`,
  }
  const rootId = hex(8)
  const route = ['/orders/:id', '/checkout', '/cart'][i % 3] ?? '/'
  const span = (name: string, kind: string, parent: string | null, ms: number) => ({
    event_type: 'span',
    name,
    kind,
    span_id: parent === null ? rootId : hex(8),
    parent_span_id: parent ?? undefined,
    duration_ms: ms,
    started_at: new Date().toISOString(),
    ...common,
  })
  return [
    {
      event_type: 'error',
      message: `TypeError: Cannot read properties of undefined (reading 'id') [http ${i % 5}]`,
      level: 'error',
      transaction_name: `GET ${route}`,
      context: {
        exception: { exception_class: 'TypeError' },
        request: { method: 'GET', url: `https://api.acme.test${route}`, route },
        tags: { region: 'eu-west-1' },
      },
      ...common,
    },
    { event_type: 'log', message: `request completed ${i}`, level: 'info', ...common },
    {
      event_type: 'transaction',
      message: `GET ${route}`,
      transaction_name: `GET ${route}`,
      duration_ms: 20 + (i % 50),
      context: { status_code: i % 20 === 0 ? 503 : 200 },
      ...common,
    },
    { event_type: 'metric', message: 'db.query', context: { value: 2 + (i % 9) }, ...common },
    {
      event_type: 'check_in',
      message: 'http-sync',
      check_in_slug: 'http-sync',
      check_in_status: 'ok',
      expected_interval_seconds: 3600,
      ...common,
    },
    span(`GET ${route}`, 'server', null, 80),
    span('SELECT orders', 'db', rootId, 12),
    span('GET payments.internal', 'http', rootId, 30),
    span('cache get', 'cache', rootId, 1),
  ]
}

/**
 * Sends `rounds` × 9 events through `POST /api/v1/ingest_events`, 8 at a time, so the rows the
 * server writes itself sit next to the bulk-seeded ones. Fails on any non-2xx answer.
 */
export async function ingestOverHttp(url: string, token: string, rounds: number): Promise<number> {
  const bodies = Array.from({ length: rounds }, (_, i) => sampleEvents(i)).flat()
  let next = 0
  const worker = async () => {
    while (next < bodies.length) {
      const event = bodies[next++]
      const res = await fetch(`${url}/api/v1/ingest_events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ event }),
      })
      if (!res.ok) throw new Error(`ingest: ${res.status} ${await res.text()}`)
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker))
  return bodies.length
}
