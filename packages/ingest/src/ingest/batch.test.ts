import { describe, expect, it } from 'vitest'
import type { CredentialRecord, WriteOp } from '../ports'
import { createBatchIngest } from './batch'

const credential = { projectId: '0b6d8f1e-3c1a-4f7e-9a52-6f2f1d7c9b10' } as CredentialRecord
const line = (n: number) =>
  JSON.stringify({
    event: { event_type: 'log', message: `line ${n}`, event_id: crypto.randomUUID() },
  })

describe('createBatchIngest', () => {
  it('lets the event loop run between slices of a long batch, and answers for every line', async () => {
    let built = 0
    const ingest = createBatchIngest({
      limits: {
        maxBodyBytes: 10_000_000,
        maxDecompressedBytes: 10_000_000,
        maxLineBytes: 10_000,
        maxEnvelopes: 1000,
      },
      now: () => new Date('2026-12-02T12:00:00Z'),
      admit: async () => ({
        credential,
        rate: { limit: 1000, remaining: 999, resetSeconds: 60 } as never,
      }),
      build: (event) => {
        built += 1
        return { type: 'event', id: event.event_id } as unknown as WriteOp
      },
      write: async (ops) => ops.map(() => ({ id: 'x', legacyId: 1 }) as never),
    })
    // What another request or the projector would run meanwhile: it must see a batch half done.
    const seen: number[] = []
    const probe = () => {
      seen.push(built)
      if (built < 1000) setImmediate(probe)
    }
    const text = Array.from({ length: 1000 }, (_, n) => line(n)).join('\n')
    const answer = ingest({ headers: { 'Content-Type': 'application/x-ndjson' }, text })
    setImmediate(probe)
    const response = await answer
    expect(response.status).toBe(202)
    expect(built).toBe(1000)
    expect(seen.some((n) => n > 0 && n < 1000)).toBe(true)
  })
})
