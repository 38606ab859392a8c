import { describe, expect, it } from 'vitest'
import { StoreError } from '../errors'
import { json } from '../http'
import type { CredentialRecord, WriteOp, WriteResult } from '../ports'
import { createEventOpBuilder } from './event-op'
import { createOtlpIngest, projectEventId } from './otlp'

// The engine's OTLP handler over stand-in ports: what the HTTP tests cannot provoke on a real
// server (an unavailable database) and how refusals of the op builder become partial success.

const CREDENTIAL: CredentialRecord = {
  id: 'k1',
  kind: 'api_key',
  projectId: '0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6071',
  projectStatus: 'active',
  integrationKind: 'node',
  revokedAt: null,
  expiresAt: null,
  binding: null,
  rateLimit: null,
}
const RATE = {
  allowed: true,
  limit: 10,
  remaining: 9,
  reset: 1_800_000_000,
  retryAfter: 0,
  windowSeconds: 60,
  count: 1,
}

const NOW = BigInt(Date.parse('2026-11-26T12:00:00Z')) * 1_000_000n
const span = (spanId: string, kind = 1) => ({
  traceId: '5b8efff798038103d269b633813fc60c',
  spanId,
  name: `span ${spanId}`,
  kind,
  startTimeUnixNano: String(NOW),
  endTimeUnixNano: String(NOW + 1_000_000n),
})
const body = (spans: object[]) =>
  new TextEncoder().encode(
    JSON.stringify({ resourceSpans: [{ resource: {}, scopeSpans: [{ scope: {}, spans }] }] }),
  )

function handler(write: (ops: readonly WriteOp[]) => Promise<readonly WriteResult[]>) {
  const build = createEventOpBuilder('production')
  return createOtlpIngest({
    admit: async () => ({ credential: CREDENTIAL, rate: RATE }),
    now: () => new Date('2026-11-26T12:00:01Z'),
    maxBodyBytes: 1_000_000,
    // Transactions are refused by the builder, as a mobile token's binding may refuse a type.
    buildEvent: (event, credential, at) =>
      event.event_type === 'transaction'
        ? json(403, { error: 'Forbidden' })
        : build(event, credential, at),
    write,
  })
}

const request = (bytes: Uint8Array, type = 'application/json') => ({
  headers: { 'content-type': type },
  bytes,
})

describe('createOtlpIngest', () => {
  it('answers 503 with Retry-After and UNAVAILABLE when the database is down', async () => {
    const ingest = handler(async () => {
      throw new StoreError('unavailable', 'connection refused')
    })
    const r = await ingest(request(body([span('eee19b7ec3c1b174')])), 'traces')
    expect(r.status).toBe(503)
    expect(r.headers['Retry-After']).toBe('5')
    expect(r.body).toEqual({ code: 14, message: 'the database is unavailable: retry later' })
  })

  it('lets any other write failure through to the host (a 500, logged)', async () => {
    const ingest = handler(async () => {
      throw new Error('disk full')
    })
    await expect(ingest(request(body([span('eee19b7ec3c1b174')])), 'traces')).rejects.toThrow(
      'disk full',
    )
  })

  it('rejects a span whole when the builder refuses a record it gives, and writes the rest', async () => {
    const written: WriteOp[] = []
    const ingest = handler(async (ops) => {
      written.push(...ops)
      return ops.map((_, i) => ({ id: `id-${i}`, duplicate: false }) as unknown as WriteResult)
    })
    // The second span is a root SERVER span: its span record passes, its transaction does not.
    const server = span('eee19b7ec3c1b175', 2)
    const r = await ingest(request(body([span('eee19b7ec3c1b174'), server])), 'traces')
    expect(r.status).toBe(200)
    expect(r.body).toEqual({
      partialSuccess: { rejectedSpans: 1, errorMessage: '1 span rejected; span 2: Forbidden' },
    })
    expect(written.map((op) => (op as { event?: { span_id?: string } }).event?.span_id)).toEqual([
      'eee19b7ec3c1b174',
    ])
  })

  it('answers protobuf requests in protobuf', async () => {
    const ingest = handler(async (ops) => ops.map(() => ({}) as WriteResult))
    const r = await ingest(request(new Uint8Array([0x0a, 0x05]), 'application/x-protobuf'), 'logs')
    expect(r.status).toBe(400)
    expect(r.headers['Content-Type']).toBe('application/x-protobuf')
    expect(r.body).toBeInstanceOf(Uint8Array)
  })
})

describe('projectEventId', () => {
  const id = '5b8efff7-9803-8103-bc88-2d4d42fe7778'
  it('is the same for one project, different for another, and a UUID v8', () => {
    const p1 = projectEventId(id, '0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6071')
    expect(p1).toBe(projectEventId(id, '0190B1C2-3D4E-7F80-9A1B-2C3D4E5F6071'))
    expect(p1).not.toBe(projectEventId(id, '0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6072'))
    // 5b8efff7 ^ 0190b1c2 = 5a1e4e35; 98038103 ^ 3d4e7f80 = a54dfe83 → version nibble 8
    expect(p1).toMatch(/^5a1e4e35-a54d-8e83-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})

describe('a conflict with another project', () => {
  it('rejects the span whose record conflicts and writes the others again', async () => {
    const calls: number[] = []
    const ingest = handler(async (ops) => {
      calls.push(ops.length)
      // The first write: op 0's id is another project's, so the store wrote none of them.
      return ops.map((_op, i) =>
        calls.length === 1 && i === 0
          ? ({
              id: 'x',
              legacyId: null,
              existing: { projectId: 'other', id: 'x' },
            } as unknown as WriteResult)
          : ({ id: `id-${i}`, legacyId: i } as WriteResult),
      )
    })
    const r = await ingest(
      request(body([span('eee19b7ec3c1b174'), span('eee19b7ec3c1b175'), span('eee19b7ec3c1b176')])),
      'traces',
    )
    expect(calls).toEqual([3, 2])
    expect(r.body).toEqual({
      partialSuccess: {
        rejectedSpans: 1,
        errorMessage: '1 span rejected; span 1: its event_id is already used by another project',
      },
    })
  })
})
