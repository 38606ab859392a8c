import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { bodyEncoding, decodeBody } from './body-decoder'
import type { EngineRequest } from './http'
import { parseBody } from './ingest/request-body'

const JSON_BODY = '{"event":{"event_type":"log","message":"é"}}'
const bytes = (s: string) => new TextEncoder().encode(s)
const request = (encoding: string | undefined, body: Partial<EngineRequest>): EngineRequest => ({
  headers: encoding === undefined ? {} : { 'Content-Encoding': encoding },
  ...body,
})

describe('bodyEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
    ['gzip', 'gzip'],
    [' GZIP ', 'gzip'],
    ['x-gzip', 'gzip'],
    ['deflate', 'deflate'],
    ['br', null],
    ['gzip, gzip', null],
    ['zstd', null],
  ])('Content-Encoding %j is %s', async (header, expected) => {
    expect(bodyEncoding(request(header, {}))).toBe(expected)
  })
})

describe('decodeBody', () => {
  it.each([
    ['gzip', gzipSync(bytes(JSON_BODY))],
    ['deflate (zlib-wrapped)', deflateSync(bytes(JSON_BODY))],
    ['deflate (raw)', deflateRawSync(bytes(JSON_BODY))],
    ['identity', bytes(JSON_BODY)],
  ])('decodes %s', async (name, body) => {
    const encoding = name.split(' ')[0]
    expect(await decodeBody(request(encoding, { bytes: body }), 1024)).toMatchObject({
      ok: true,
      text: JSON_BODY,
    })
  })

  it('reads text given instead of bytes as the Latin-1 bytes it was decoded from', async () => {
    const text = Buffer.from(gzipSync(bytes(JSON_BODY))).toString('latin1')
    expect(await decodeBody(request('gzip', { text }), 1024)).toMatchObject({
      ok: true,
      text: JSON_BODY,
    })
  })

  it('stops inflating at the cap: a small bomb is a 413, a body at the cap is fine', async () => {
    const bomb = gzipSync(Buffer.alloc(10_000_000, 'a'))
    expect(bomb.byteLength).toBeLessThan(20_000)
    expect(await decodeBody(request('gzip', { bytes: bomb }), 65_536)).toEqual({
      ok: false,
      status: 413,
      problem: 'the body is larger than 65536 bytes once decompressed',
    })
    const exact = gzipSync(Buffer.alloc(1024, 'a'))
    expect(await decodeBody(request('gzip', { bytes: exact }), 1024)).toMatchObject({ ok: true })
    expect(
      await decodeBody(request('deflate', { bytes: deflateSync(Buffer.alloc(1025)) }), 1024),
    ).toMatchObject({
      status: 413,
    })
  })

  it('caps an identity body too', async () => {
    expect(await decodeBody(request(undefined, { bytes: new Uint8Array(11) }), 10)).toMatchObject({
      status: 413,
    })
    expect(await decodeBody(request(undefined, { text: 'é'.repeat(6) }), 10)).toMatchObject({
      status: 413,
    })
  })

  it.each([
    ['gzip', bytes(JSON_BODY), 'the body is not valid gzip'],
    ['gzip', gzipSync(bytes(JSON_BODY)).subarray(0, 20), 'the body is not valid gzip'],
    ['gzip', new Uint8Array(), 'the body is not valid gzip'],
    ['deflate', bytes('not deflate'), 'the body is not valid deflate'],
  ])('a body that is not %s is a 400', async (encoding, body, problem) => {
    expect(await decodeBody(request(encoding, { bytes: body }), 1024)).toEqual({
      ok: false,
      status: 400,
      problem,
    })
  })

  it('an unknown coding is a 415 naming it', async () => {
    expect(await decodeBody(request('br', { bytes: bytes(JSON_BODY) }), 1024)).toEqual({
      ok: false,
      status: 415,
      problem: 'Content-Encoding "br" is not supported (send gzip, deflate or none)',
    })
  })
})

describe('parseBody of the single-record endpoints', () => {
  it('parses a gzip body', async () => {
    expect(
      await parseBody(request('gzip', { bytes: gzipSync(bytes(JSON_BODY)) }), 'event', 1024),
    ).toEqual({
      value: JSON.parse(JSON_BODY),
    })
  })

  it('a bad gzip is a 400 that names the envelope and the coding', async () => {
    expect(
      await parseBody(request('gzip', { bytes: bytes('{}') }), 'check_in', 1024),
    ).toMatchObject({
      status: 400,
      body: {
        error: 'param is missing or the value is empty: check_in (the body is not valid gzip)',
      },
    })
  })

  it('over the cap once decompressed is a 413', async () => {
    const bomb = gzipSync(Buffer.alloc(100_000, ' '))
    expect(await parseBody(request('gzip', { bytes: bomb }), 'event', 65_536)).toMatchObject({
      status: 413,
      body: { error: 'request body is too large (maximum is 65536 bytes once decompressed)' },
    })
  })

  it('keeps plain text and parsed bodies as before', async () => {
    expect(await parseBody(request(undefined, { text: JSON_BODY }), 'event', 1)).toEqual({
      value: JSON.parse(JSON_BODY),
    })
    expect(await parseBody(request('gzip', { body: { event: {} } }), 'event', 1)).toEqual({
      value: { event: {} },
    })
    expect(await parseBody(request(undefined, { text: '{' }), 'event', 1024)).toMatchObject({
      status: 400,
    })
  })
})
