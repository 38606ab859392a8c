import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import type { Harness } from '@tis/test-utils/server'
import { expect, it } from 'vitest'
import { batchProject, logLine, ndjson } from './batch-helpers'

const MIB = 1024 * 1024

/**
 * One line as logister-python 0.4.0 prepares it (`PreparedEvent.body`, see
 * ../shared/fixtures/logister-python/): the envelope with `uuid` and `occurred_at`, its context,
 * and `filler` in the context, padded or cut so that the line is exactly `length` bytes.
 */
function pythonLine(i: number, length: number, filler: (n: number) => string): string {
  const event = {
    uuid: randomUUID(),
    event_type: 'log',
    level: 'info',
    message: `batch line ${i}`,
    context: {
      service: 'checkout-api',
      environment: 'staging',
      runtime: 'python',
      python_version: '3.11.7',
      payload: '',
    },
    occurred_at: new Date().toISOString(),
  }
  const bare = JSON.stringify({ event }).length
  event.context.payload = filler(length - bare)
  return JSON.stringify({ event })
}

/**
 * What `logister.delivery.deliver_batch` sends for these lines: NDJSON with a final newline,
 * gzip level 9, `X-Logister-Batch-Id` = SHA-256 of the raw body. `split` is the client's own rule:
 * more than one line and over 8 MiB raw or 2 MiB compressed (it would then send halves).
 */
function pythonBatch(lines: string[]) {
  const raw = Buffer.from(`${lines.join('\n')}\n`)
  const body = gzipSync(raw, { level: 9 })
  return {
    raw,
    body,
    split: lines.length > 1 && (raw.length > 8 * MIB || body.length > 2 * MIB),
    headers: {
      'Content-Encoding': 'gzip',
      'X-Logister-Batch-Id': createHash('sha256').update(raw).digest('hex'),
    },
  }
}

/** Text that compresses well (a log), and text that does not (random base64). */
const prose = (n: number) => 'GET /checkout 200 in 12 ms; cart=42 items=3. '.repeat(n).slice(0, n)
const noise = (n: number) => randomBytes(n).toString('base64').slice(0, n)

/** The batch endpoint's caps: what Logister's clients send fits; bombs and oversize do not. */
export function describeBatchSizes(harness: () => Harness) {
  it('accepts the largest batches logister-python sends, in one request each', async () => {
    const s = await batchProject(harness())
    expect((await s.setLimit(1000)).status).toBe(200)
    // 100 lines (its chunk) of 8 MiB raw in all: the most it sends uncompressed.
    const perLine = Math.floor((8 * MIB - 100) / 100)
    const long = Array.from({ length: 100 }, (_, i) =>
      pythonLine(i, perLine + (i < (8 * MIB - 100) % 100 ? 1 : 0), prose),
    )
    const rawest = pythonBatch(long)
    expect(rawest.raw.length).toBe(8 * MIB)
    expect(rawest.split).toBe(false)
    const a = await s.post(rawest.body, rawest.headers)
    expect(a.status).toBe(202)
    expect(a.body).toMatchObject({
      batch_id: rawest.headers['X-Logister-Batch-Id'],
      accepted: 100,
      duplicates: 0,
    })
    // 100 lines of random text: just under 2 MiB once compressed, the most it sends on the wire.
    let size = 28_000
    let dense = pythonBatch(Array.from({ length: 100 }, (_, i) => pythonLine(i, size, noise)))
    while (dense.body.length > 2 * MIB) {
      size -= 100
      dense = pythonBatch(Array.from({ length: 100 }, (_, i) => pythonLine(i, size, noise)))
    }
    expect(dense.body.length).toBeGreaterThan(2 * MIB - 16 * 1024)
    expect(dense.split).toBe(false)
    const b = await s.post(dense.body, dense.headers)
    expect(b).toMatchObject({ status: 202, body: { accepted: 100 } })
    expect((await s.counts()).events).toBe(200)
  })

  it('refuses a gzip bomb with 413 once it inflates past 8 MiB, storing nothing', async () => {
    const s = await batchProject(harness())
    const lines = Array.from({ length: 10 }, (_, i) => pythonLine(i, 0.95 * MIB, prose))
    const bomb = gzipSync(`${lines.join('\n')}\n`)
    expect(bomb.length).toBeLessThan(64 * 1024)
    const r = await s.post(bomb, { 'Content-Encoding': 'gzip' })
    expect(r).toEqual({
      status: 413,
      headers: expect.anything(),
      body: { error: 'batch is too large (maximum is 8388608 bytes uncompressed)' },
    })
    expect((await s.counts()).events).toBe(0)
  })

  it('refuses with 413 an envelope over 1 MiB, more than 1,000 envelopes, a body over 2 MiB', async () => {
    const s = await batchProject(harness())
    const huge = [pythonLine(0, 1000, prose), pythonLine(1, MIB + 1, prose)]
    const big = await s.post(gzipSync(`${huge.join('\n')}\n`), { 'Content-Encoding': 'gzip' })
    expect(big.status).toBe(413)
    expect(big.body.error).toBe(
      'envelope 2 of the batch is too large (maximum is 1048576 bytes per envelope)',
    )
    const many = await s.post(ndjson(Array.from({ length: 1001 }, (_, i) => logLine(`m${i}`))))
    expect(many).toMatchObject({
      status: 413,
      body: { error: 'batch has 1001 envelopes (maximum is 1000)' },
    })
    const wire = await s.post(ndjson([logLine('x'.repeat(2 * MIB))]))
    expect(wire).toMatchObject({
      status: 413,
      body: { error: 'request body is too large (maximum is 2097152 bytes)' },
    })
    expect((await s.counts()).events).toBe(0)
  })
}
