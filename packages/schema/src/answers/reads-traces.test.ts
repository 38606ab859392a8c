import { describe, expect, it } from 'vitest'
import { SPAN_KINDS } from '../enums'
import { createOpenApiDocument } from '../openapi'
import { READ_COMPONENTS } from './reads-components'
import { spanSchema, traceSpanSchema } from './reads-traces'

// A stored span's kind is one of the ten (the normaliser maps any other sent kind to `internal`),
// so the answer schemas, and the OpenAPI document made from them, say so.

const span = {
  id: '0190a4f0-0000-7000-8000-000000000001',
  trace_id: 't',
  span_id: 's',
  parent_span_id: null,
  name: 'GET /',
  kind: 'server',
  started_at: '2026-01-01T00:00:00.000Z',
  ended_at: null,
  duration_ms: 1,
  environment: null,
  release: null,
  status: 'ok',
  level: null,
  context: {},
}

describe("a span's kind", () => {
  const doc = createOpenApiDocument({ extensions: [{ schemas: READ_COMPONENTS }] })

  it('is the enum of the ten kinds, or null, in the OpenAPI document', () => {
    const kind = doc.components.schemas['Span']?.['properties'] as Record<string, unknown>
    expect(kind['kind']).toMatchObject({
      anyOf: [{ type: 'string', enum: [...SPAN_KINDS] }, { type: 'null' }],
    })
  })

  it.each(SPAN_KINDS)('accepts the stored kind %s', (kind) => {
    expect(spanSchema.safeParse({ ...span, kind }).success).toBe(true)
  })

  it.each([['graphql'], ['DB'], ['client']])('rejects %s, which is never stored', (kind) => {
    expect(spanSchema.safeParse({ ...span, kind }).success).toBe(false)
    expect(traceSpanSchema.safeParse({ ...span, kind, depth: 0 }).success).toBe(false)
  })

  it('accepts null, a span sent without a kind', () => {
    expect(spanSchema.safeParse({ ...span, kind: null }).success).toBe(true)
  })
})
