import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { batchIdOf } from './batch-answer'
import { type BatchLimits, batchLines } from './batch-lines'

const LIMITS: BatchLimits = {
  maxBodyBytes: 1000,
  maxDecompressedBytes: 4000,
  maxLineBytes: 300,
  maxEnvelopes: 120,
}
const NDJSON = { 'Content-Type': 'application/x-ndjson' }
const line = (n: number) => JSON.stringify({ event: { message: 'x'.repeat(n) } })
const lines = (count: number, size = 10) => Array.from({ length: count }, () => line(size))
const decode = (body: string | Uint8Array, headers: Record<string, string> = NDJSON) =>
  batchLines(typeof body === 'string' ? { headers, text: body } : { headers, bytes: body }, LIMITS)
const gzip = { ...NDJSON, 'Content-Encoding': 'gzip' }

describe('batchLines: the caps of a batch body', () => {
  it.each([
    ['plain NDJSON, blank lines and \\r\\n skipped', `${line(1)}\r\n\n${line(2)}\n`, NDJSON, 2],
    ['application/ndjson', line(1), { 'Content-Type': 'application/ndjson' }, 1],
    ['gzip bytes', gzipSync(lines(3).join('\n')), gzip, 3],
    ['gzip as a latin1 string', gzipSync(line(1)).toString('latin1'), gzip, 1],
    ['100 envelopes', gzipSync(lines(100, 1).join('\n')), gzip, 100],
  ])('accepts %s', async (_, body, headers, count) => {
    expect(await decode(body, headers)).toEqual({ lines: expect.any(Array) })
    expect(((await decode(body, headers)) as { lines: string[] }).lines).toHaveLength(count)
  })

  it.each([
    ['a JSON content type', line(1), { 'Content-Type': 'application/json' }, 415],
    ['a brotli body', line(1), { ...NDJSON, 'Content-Encoding': 'br' }, 415],
    ['no line', '\n \r\n', NDJSON, 400],
    ['a body that is not gzip', 'plain', gzip, 400],
    ['121 envelopes (over maxEnvelopes)', gzipSync(lines(121, 1).join('\n')), gzip, 413],
    ['a body over maxBodyBytes as sent', lines(4, 280).join('\n'), NDJSON, 413],
    ['gzip inflating past maxDecompressedBytes', gzipSync(lines(20, 250).join('\n')), gzip, 413],
    ['one envelope over maxLineBytes', [line(1), line(400)].join('\n'), NDJSON, 413],
  ])('refuses %s', async (_, body, headers, status) => {
    expect(await decode(body, headers)).toMatchObject({ status })
  })

  it('names the cap and the envelope in its 413s', async () => {
    expect(await decode([line(1), line(400)].join('\n'))).toMatchObject({
      body: { error: 'envelope 2 of the batch is too large (maximum is 300 bytes per envelope)' },
    })
    expect(await decode(gzipSync(lines(20, 250).join('\n')), gzip)).toMatchObject({
      body: { error: 'batch is too large (maximum is 4000 bytes uncompressed)' },
    })
    expect(await decode(gzipSync(lines(121, 1).join('\n')), gzip)).toMatchObject({
      body: { error: 'batch has 121 envelopes (maximum is 120)' },
    })
  })
})

describe('batchIdOf: X-Logister-Batch-Id', () => {
  const at = new Date('2026-01-01T00:00:00Z')
  const hex = 'a'.repeat(64)
  it.each([
    ['a SHA-256 hex digest', hex, hex],
    ['letters, digits and ._:-', 'sdk-batch_1.2:3', 'sdk-batch_1.2:3'],
  ])('keeps %s', (_, sent, expected) => {
    expect(batchIdOf({ 'X-Logister-Batch-Id': sent }, at)).toBe(expected)
  })

  it.each([
    ['none', undefined],
    ['an empty one', ''],
    ['one over 128 characters', 'a'.repeat(129)],
    ['one with a space or markup', 'a b<script>'],
  ])('generates a UUID v7 for %s', (_, sent) => {
    const id = batchIdOf(sent === undefined ? {} : { 'X-Logister-Batch-Id': sent }, at)
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})
