import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { zlibInflater } from '@tis/test-utils/zlib-inflater'
import { describe, expect, it } from 'vitest'
import { bodyEncoding, decodeBody } from './body-decoder'
import type { EngineRequest } from './http'
import { parseBody } from './ingest/request-body'

const zlib = zlibInflater
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
  ])('Content-Encoding %j is %s', (header, expected) => {
    expect(bodyEncoding(request(header, {}))).toBe(expected)
  })
})

describe('decodeBody', () => {
  it.each([
    ['gzip', gzipSync(bytes(JSON_BODY))],
    ['deflate (zlib-wrapped)', deflateSync(bytes(JSON_BODY))],
    ['deflate (raw)', deflateRawSync(bytes(JSON_BODY))],
    ['identity', bytes(JSON_BODY)],
  ])('decodes %s', (name, body) => {
    const encoding = name.split(' ')[0]
    expect(decodeBody(request(encoding, { bytes: body }), 1024, zlib)).toMatchObject({
      ok: true,
      text: JSON_BODY,
    })
  })

  it('reads text given instead of bytes as the Latin-1 bytes it was decoded from', () => {
    const text = Buffer.from(gzipSync(bytes(JSON_BODY))).toString('latin1')
    expect(decodeBody(request('gzip', { text }), 1024, zlib)).toMatchObject({
      ok: true,
      text: JSON_BODY,
    })
  })

  it('stops inflating at the cap: a small bomb is a 413, a body at the cap is fine', () => {
    const bomb = gzipSync(Buffer.alloc(10_000_000, 'a'))
    expect(bomb.byteLength).toBeLessThan(20_000)
    expect(decodeBody(request('gzip', { bytes: bomb }), 65_536, zlib)).toEqual({
      ok: false,
      status: 413,
      problem: 'the body is larger than 65536 bytes once decompressed',
    })
    const exact = gzipSync(Buffer.alloc(1024, 'a'))
    expect(decodeBody(request('gzip', { bytes: exact }), 1024, zlib)).toMatchObject({ ok: true })
    expect(
      decodeBody(request('deflate', { bytes: deflateSync(Buffer.alloc(1025)) }), 1024, zlib),
    ).toMatchObject({
      status: 413,
    })
  })

  it('caps an identity body too', () => {
    expect(decodeBody(request(undefined, { bytes: new Uint8Array(11) }), 10, zlib)).toMatchObject({
      status: 413,
    })
    expect(decodeBody(request(undefined, { text: 'é'.repeat(6) }), 10, zlib)).toMatchObject({
      status: 413,
    })
  })

  it.each([
    ['gzip', bytes(JSON_BODY), 'the body is not valid gzip'],
    ['gzip', gzipSync(bytes(JSON_BODY)).subarray(0, 20), 'the body is not valid gzip'],
    ['gzip', new Uint8Array(), 'the body is not valid gzip'],
    ['deflate', bytes('not deflate'), 'the body is not valid deflate'],
  ])('a body that is not %s is a 400', (encoding, body, problem) => {
    expect(decodeBody(request(encoding, { bytes: body }), 1024, zlib)).toEqual({
      ok: false,
      status: 400,
      problem,
    })
  })

  it('an unknown coding is a 415 naming it', () => {
    expect(decodeBody(request('br', { bytes: bytes(JSON_BODY) }), 1024, zlib)).toEqual({
      ok: false,
      status: 415,
      problem: 'Content-Encoding "br" is not supported (send gzip, deflate or none)',
    })
  })
})

describe('parseBody of the single-record endpoints', () => {
  it('parses a gzip body', () => {
    expect(
      parseBody(request('gzip', { bytes: gzipSync(bytes(JSON_BODY)) }), 'event', 1024, zlib),
    ).toEqual({
      value: JSON.parse(JSON_BODY),
    })
  })

  it('a bad gzip is a 400 that names the envelope and the coding', () => {
    expect(
      parseBody(request('gzip', { bytes: bytes('{}') }), 'check_in', 1024, zlib),
    ).toMatchObject({
      status: 400,
      body: {
        error: 'param is missing or the value is empty: check_in (the body is not valid gzip)',
      },
    })
  })

  it('over the cap once decompressed is a 413', () => {
    const bomb = gzipSync(Buffer.alloc(100_000, ' '))
    expect(parseBody(request('gzip', { bytes: bomb }), 'event', 65_536, zlib)).toMatchObject({
      status: 413,
      body: { error: 'request body is too large (maximum is 65536 bytes once decompressed)' },
    })
  })

  it('keeps plain text and parsed bodies as before', () => {
    expect(parseBody(request(undefined, { text: JSON_BODY }), 'event', 1, zlib)).toEqual({
      value: JSON.parse(JSON_BODY),
    })
    expect(parseBody(request('gzip', { body: { event: {} } }), 'event', 1, zlib)).toEqual({
      value: { event: {} },
    })
    expect(parseBody(request(undefined, { text: '{' }), 'event', 1024, zlib)).toMatchObject({
      status: 400,
    })
  })
})

describe('without an inflater (a host that decodes nothing)', () => {
  it('answers a compressed body 415 and still reads plain ones', () => {
    const gz = request('gzip', { bytes: gzipSync(bytes(JSON_BODY)) })
    expect(decodeBody(gz, 1024)).toEqual({
      ok: false,
      status: 415,
      problem: 'Content-Encoding "gzip" is not supported by this host (send the body uncompressed)',
    })
    expect(parseBody(gz, 'event', 1024)).toMatchObject({ status: 415 })
    expect(decodeBody(request(undefined, { bytes: bytes(JSON_BODY) }), 1024)).toMatchObject({
      ok: true,
      text: JSON_BODY,
    })
  })
})
