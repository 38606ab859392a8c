import { parseEnvelope, type SpanKind as SchemaSpanKind } from '@tis/schema'
import { expect, expectTypeOf, it } from 'vitest'
import { createClient, type SpanKind, type Transport, type TransportRequest } from '../src/index'

// Every payload the SDK builds is valid for the server's own parser (@tis/schema, a
// devDependency: the SDK ships no runtime or type dependency on it).
it('every capture parses with @tis/schema', async () => {
  const sent: TransportRequest[] = []
  const transport: Transport = {
    send: async (request) => {
      sent.push(request)
      return { status: 'sent', statusCode: 201 }
    },
    flush: async () => ({ sent: sent.length, duplicates: 0, dropped: {}, pending: 0 }),
  }
  const client = createClient({
    baseUrl: 'https://unused.test',
    apiKey: 'k',
    environment: 'conformance',
    release: '1.0.0',
    transport,
    autoFlush: false,
    // Session bodies are the server's sessions endpoint's, not an envelope of @tis/schema.
    sessions: false,
  })
  const hostile: Record<string, unknown> = { n: 1n }
  hostile['self'] = hostile
  client.captureException(new AggregateError([new Error('a')], 'agg'), {
    fingerprint: 'f',
    userId: 3,
    context: { hostile },
  })
  client.captureMessage('m', { level: 'fatal', traceId: 't', sessionId: 's', requestId: 'r' })
  client.captureMetric('db.query', 1.5, { unit: 'ms', tags: { a: 1 } })
  client.captureTransaction('GET /', 10, { status: 500 })
  client.captureSpan('child', 2, { kind: 'db', parentSpanId: '0'.repeat(16) })
  client.checkIn('job', 'error', { expectedIntervalSeconds: 60, durationMs: 3 })
  client.recordDeployment({
    release: '1.0.0',
    repository: 'tis-dev/tis',
    commitSha: 'abcdef1',
    pullRequestUrl: 'https://github.com/tis-dev/tis/pull/1',
    deployedAt: new Date(0),
  })
  await client.flush()
  expect(sent).toHaveLength(7)
  const keyOf = {
    ingest_events: 'event',
    check_ins: 'check_in',
    deployments: 'deployment',
  } as const
  for (const request of sent) {
    const result = parseEnvelope(
      keyOf[request.endpoint as keyof typeof keyOf],
      JSON.parse(request.body),
    )
    expect(result, request.body).toMatchObject({ ok: true })
  }
})

it('SpanKind matches the schema', () => {
  expectTypeOf<SpanKind>().toEqualTypeOf<SchemaSpanKind>()
})
