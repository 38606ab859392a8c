import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { decompress } from './decompress'

const BODY = new TextEncoder().encode('{"event": {"event_type": "error", "message": "x"}}')
const text = (bytes: Uint8Array | string) =>
  typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes)

describe('decompress', () => {
  it.each([
    ['gzip', gzipSync(BODY)],
    ['deflate', deflateSync(BODY)],
    ['deflate', deflateRawSync(BODY)],
  ] as const)('inflates %s', async (encoding, body) => {
    expect(text(await decompress(body, encoding, 1024))).toBe(text(BODY))
  })

  it('inflates gzip members sent one after another', async () => {
    const two = Buffer.concat([gzipSync('ab'), gzipSync('cd')])
    expect(text(await decompress(two, 'gzip', 1024))).toBe('abcd')
  })

  it('stops at the cap on the output: a bomb is too large, exactly the cap is not', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1_048_576))
    expect(bomb.byteLength).toBeLessThan(100_000)
    expect(await decompress(bomb, 'gzip', 65_536)).toBe('too-large')
    expect(await decompress(deflateSync(Buffer.alloc(1025)), 'deflate', 1024)).toBe('too-large')
    expect(await decompress(gzipSync(Buffer.alloc(1024)), 'gzip', 1024)).toHaveLength(1024)
  })

  it.each([
    ['gzip', new TextEncoder().encode('not gzip')],
    ['deflate', new TextEncoder().encode('not deflate')],
    ['gzip', gzipSync(BODY).subarray(0, 20)],
  ] as const)('answers invalid for a body that is not %s', async (encoding, body) => {
    expect(await decompress(body, encoding, 1024)).toBe('invalid')
  })
})
