import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { createZlibInflater } from './body-inflater'

const inflater = createZlibInflater()
const text = (bytes: Uint8Array | string) =>
  typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes)
const BODY = new TextEncoder().encode('{"event":{"message":"é"}}')

describe('createZlibInflater', () => {
  it.each([
    ['gzip', gzipSync(BODY)],
    ['deflate', deflateSync(BODY)],
    ['deflate', deflateRawSync(BODY)],
  ] as const)('inflates %s', (encoding, body) => {
    expect(text(inflater.inflate(body, encoding, 1024))).toBe(text(BODY))
  })

  it('stops at the cap: a bomb is too-large, a body of exactly the cap is not', () => {
    const bomb = gzipSync(Buffer.alloc(1_000_000, ' '))
    expect(inflater.inflate(bomb, 'gzip', 65_536)).toBe('too-large')
    expect(inflater.inflate(deflateSync(Buffer.alloc(1025)), 'deflate', 1024)).toBe('too-large')
    expect(inflater.inflate(gzipSync(Buffer.alloc(1024)), 'gzip', 1024)).toHaveLength(1024)
  })

  it.each([
    ['gzip', BODY],
    ['gzip', gzipSync(BODY).subarray(0, 20)],
    ['gzip', new Uint8Array()],
    ['deflate', new TextEncoder().encode('not deflate')],
  ] as const)('a body that is not %s is invalid', (encoding, body) => {
    expect(inflater.inflate(body, encoding, 1024)).toBe('invalid')
  })
})
