import { deflateSync, gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { SHARED_IDS } from './envelopes'
import {
  type Mutation,
  mutate,
  mutations,
  serialize,
  type TextMutation,
  textMutation,
} from './mutations'
import type { FuzzFixture, FuzzRequest } from './server'
import type { EndpointName } from './shapes'
import { anyJson, anyString, MARK } from './values'

/** Who a request claims to be. */
export type AuthPlan =
  | {
      readonly kind:
        | 'apiKey'
        | 'apiKeyBearer'
        | 'both'
        | 'mobile'
        | 'mobileHeader'
        | 'admin'
        | 'user'
        | 'none'
    }
  | { readonly kind: 'mixed'; readonly first: 'apiKey' | 'mobile' | 'admin' }
  | {
      readonly kind: 'garbage'
      readonly header: 'Authorization' | 'X-Api-Key'
      readonly value: string
    }

/** A JSON body: a value, structural mutations, then a text mutation. */
export interface JsonBody {
  readonly value: unknown
  readonly mutations: readonly Mutation[]
  readonly text: TextMutation
}

/** How a single-record JSON body is sent: as is, or compressed with a `Content-Encoding`. */
export type Compression =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'gzip' | 'deflate' | 'plain'
      /** What `Content-Encoding` claims (`plain`: the body is sent uncompressed anyway). */
      readonly header: string
      /** Cut the compressed bytes short. */
      readonly truncate: boolean
    }

/** A request body before the marker and credentials are filled in. */
export type BodyPlan =
  | ({ readonly kind: 'json'; readonly compression?: Compression } & JsonBody)
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  | { readonly kind: 'none' }
  | {
      readonly kind: 'ndjson'
      readonly lines: readonly (JsonBody | string)[]
      readonly separator: string
      readonly encoding: BatchEncoding
    }

/** How a batch body is encoded, and what `Content-Encoding` claims. */
export interface BatchEncoding {
  readonly gzip: boolean
  readonly header: string | undefined
  /** Cut the compressed bytes short. */
  readonly truncate: boolean
}

/** One generated request: what to send, with the credential and marker still open. */
export interface RequestPlan {
  readonly endpoint: EndpointName
  readonly method: string
  /** The path, given the fixture's ids. */
  readonly path: (fixture: FuzzFixture) => string
  readonly auth: AuthPlan
  readonly contentType: string | undefined
  readonly body: BodyPlan
  /** Send a correct `Content-Length`. */
  readonly contentLength: boolean
  /** The body is valid under every rule: anything but an acceptance (or 429) is a finding. */
  readonly mustAccept?: boolean
}

const garbageAuth = fc.oneof(
  fc.record({
    kind: fc.constant('garbage' as const),
    header: fc.constant('Authorization' as const),
    value: fc.constantFrom(
      'Bearer',
      'Bearer ',
      'Basic Zm9vOmJhcg==',
      'Bearer tis_',
      'Bearer tis_mobile_00',
      `Bearer tis_mobile_${'0'.repeat(64)}`,
      'Bearer tis_user_00',
      `Bearer tis_${'a'.repeat(48)}`,
      `Bearer ${'a'.repeat(8000)}`,
      'Bearer \u00e9\u00ff',
      'Token abc',
      '@KEY@ ',
      'bearer @KEY@',
      'Bearer  @KEY@',
      'Bearer @KEY@x',
      'Bearer @KEY@,@KEY@',
      'Bearer @USER@',
    ),
  }),
  fc.record({
    kind: fc.constant('garbage' as const),
    header: fc.constant('X-Api-Key' as const),
    value: fc.oneof(
      fc.constantFrom(
        '',
        ' ',
        'tis_',
        '@KEY@ x',
        ' @KEY@',
        '@KEY@\t',
        '@KEY@@KEY@',
        'Bearer @KEY@',
        '@USER@',
      ),
      fc.string({
        unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)),
        maxLength: 80,
      }),
    ),
  }),
)

/** Credentials for ingestion: mostly the right ones, so most cases reach the normaliser. */
export const ingestAuth: fc.Arbitrary<AuthPlan> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.constantFrom({ kind: 'apiKey' as const }, { kind: 'apiKeyBearer' as const }),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom({ kind: 'mobile' as const }, { kind: 'mobileHeader' as const }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { kind: 'both' as const },
      { kind: 'admin' as const },
      { kind: 'none' as const },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('mixed' as const),
      first: fc.constantFrom('apiKey' as const, 'mobile' as const, 'admin' as const),
    }),
  },
  { weight: 2, arbitrary: garbageAuth },
)

/** Credentials for the management and read APIs: mostly the administrator. */
export const userAuth: fc.Arbitrary<AuthPlan> = fc.oneof(
  { weight: 10, arbitrary: fc.constant({ kind: 'admin' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'user' as const }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { kind: 'apiKeyBearer' as const },
      { kind: 'mobile' as const },
      { kind: 'none' as const },
      { kind: 'apiKey' as const },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('mixed' as const),
      first: fc.constantFrom('apiKey' as const, 'admin' as const),
    }),
  },
  { weight: 1, arbitrary: garbageAuth },
)

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/x-ndjson',
  '',
  ';;;',
  'application/json\u00e9',
] as const

/** `Content-Type` of a JSON endpoint: mostly JSON. */
export const jsonContentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  { weight: 2, arbitrary: fc.constantFrom<string | undefined>(...CONTENT_TYPES, undefined) },
)

const enc = new TextEncoder()

/** Raw bodies: invalid UTF-8, truncated JSON, BOMs, UTF-16, empty, random bytes. */
export const rawBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.constantFrom(
    new Uint8Array([]),
    new Uint8Array([0xff, 0xfe, 0xfd]),
    new Uint8Array([0xc3]),
    new Uint8Array([0xed, 0xa0, 0x80]),
    new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...enc.encode('{"event":{"event_type":"log","message":"bom"}}'),
    ]),
    new Uint8Array([0xff, 0xfe, ...Buffer.from('{"event":{}}', 'utf16le')]),
    enc.encode('{"event":{"event_type":"log","message":"\u0000 nul'),
    enc.encode('{"event":'),
    enc.encode('   '),
    enc.encode('null'),
    gzipSync(enc.encode('{"event":{"event_type":"log","message":"gz"}}')),
  ),
  fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 8 }), fc.nat()).map(([junk, at]) => {
    const json = enc.encode(`{"event":{"event_type":"log","message":"${MARK}"}}`)
    const i = at % json.length
    return new Uint8Array([...json.slice(0, i), ...junk, ...json.slice(i)])
  }),
)

/** Compression of a single-record body: mostly none; gzip, deflate, or a false claim. */
export const compression: fc.Arbitrary<Compression> = fc.oneof(
  { weight: 12, arbitrary: fc.constant({ kind: 'none' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom('gzip' as const, 'deflate' as const),
      header: fc.constantFrom('gzip', 'deflate', 'GZIP', ' x-gzip'),
      truncate: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('plain' as const),
      header: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'gzip, deflate', 'zstd', ''),
      truncate: fc.constant(false),
    }),
  },
)

/** A valid compression: none, or gzip or deflate, named right. */
export const validCompression: fc.Arbitrary<Compression> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.constantFrom('gzip' as const, 'deflate' as const).map((kind) => ({
    kind,
    header: kind,
    truncate: false,
  })),
)

/** A body that must be accepted: `valid` wrapped in its envelope, unmutated, maybe compressed. */
export function acceptedJsonBody(envelope: string, valid: fc.Arbitrary<unknown>) {
  return fc.record({
    kind: fc.constant('json' as const),
    value: valid.map((v) => ({ [envelope]: v })),
    mutations: fc.constant([]),
    text: fc.constant({ kind: 'none' as const }),
    compression: validCompression,
  })
}

/**
 * A JSON body for `envelope`: a valid envelope mutated, a generated value, or raw bytes;
 * compressed sometimes when `compress` (the single-record ingestion endpoints).
 */
export function jsonBody(
  envelope: string,
  valid: fc.Arbitrary<unknown>,
  compress = false,
): fc.Arbitrary<BodyPlan> {
  const upper = envelope.toUpperCase()
  const coding = compress ? compression : fc.constant({ kind: 'none' as const })
  const wrapped = fc
    .tuple(valid, fc.nat(9))
    .map(([v, n]) => (n === 0 ? { [upper]: v } : { [envelope]: v }))
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('json' as const),
        value: wrapped,
        // Mostly mutated: a refused case never reaches the database, so CI's thousands of cases stay quick.
        mutations: fc.oneof(
          { weight: 1, arbitrary: fc.constant([]) },
          { weight: 3, arbitrary: mutations.filter((m) => m.length > 0) },
        ),
        text: textMutation,
        compression: coding,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('json' as const),
        value: fc.oneof(
          anyJson,
          fc.dictionary(fc.constantFrom(envelope, upper, 'x'), anyJson, { maxKeys: 2 }),
        ),
        mutations: fc.constant([]),
        text: textMutation,
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('bytes' as const), bytes: rawBytes }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  )
}

/** NDJSON lines: mutated valid envelopes (most with an `event_id`), junk lines, blank lines. */
export function ndjsonBody(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<BodyPlan> {
  const withId = fc
    .tuple(valid, fc.oneof(fc.uuid(), fc.constantFrom(...SHARED_IDS)), fc.nat(19))
    .map(([v, id, n]) =>
      n === 0
        ? { EVENT: { ...v, event_id: id } }
        : n === 1
          ? { event: v }
          : { event: { ...v, event_id: id } },
    )
  const cleanLine = fc.record({
    value: withId.filter((v) => 'event' in v && 'event_id' in (v.event as object)),
    mutations: fc.constant([]),
    text: fc.constant({ kind: 'none' as const }),
  })
  const line = fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record({
        value: withId,
        mutations: fc.oneof(fc.constant([]), mutations),
        text: textMutation,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ value: anyJson, mutations: fc.constant([]), text: textMutation }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '   ',
        '\u0000',
        '{',
        '[]',
        'null',
        `{"event":{"message":"${MARK}"}}`,
      ),
    },
  )
  const encoding: fc.Arbitrary<BatchEncoding> = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        gzip: fc.constant(false),
        header: fc.constant(undefined),
        truncate: fc.constant(false),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        gzip: fc.constant(true),
        header: fc.constantFrom('gzip', 'GZIP', ' gzip', 'x-gzip'),
        truncate: fc.boolean(),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        gzip: fc.boolean(),
        header: fc.constantFrom(
          'identity',
          'deflate',
          'br',
          'gzip, gzip',
          'gzip;q=1',
          'compress',
          '',
          'zstd',
        ),
        truncate: fc.constant(false),
      }),
    },
  )
  return fc.record({
    kind: fc.constant('ndjson' as const),
    lines: fc.oneof(
      { weight: 40, arbitrary: fc.array(line, { minLength: 1, maxLength: 5 }) },
      // All or nothing: one bad line refuses the batch, so whole batches of untouched envelopes
      // are what reach a 202 (and the duplicates of SHARED_IDS).
      { weight: 30, arbitrary: fc.array(cleanLine, { minLength: 1, maxLength: 3 }) },
      { weight: 1, arbitrary: fc.array(line, { minLength: 98, maxLength: 103 }) },
      { weight: 1, arbitrary: fc.constant([]) },
    ),
    separator: fc.constantFrom('\n', '\n', '\r\n', '\n\n', '\r'),
    encoding,
  })
}

let counter = 0
/** A marker no other request of this process carries. */
export const nextMarker = () => {
  counter += 1
  return `fzm${counter}q`
}
/** Finds every marker in a text. */
export const MARKER_PATTERN = /fzm\d+(?:l\d+)?q/g

function credentialHeaders(auth: AuthPlan, f: FuzzFixture): Record<string, string> {
  const fill = (s: string) => s.replaceAll('@KEY@', f.apiKey).replaceAll('@USER@', f.userToken)
  const bearer = (t: string) => ({ Authorization: `Bearer ${t}` })
  switch (auth.kind) {
    case 'apiKey':
      return { 'X-Api-Key': f.apiKey }
    case 'apiKeyBearer':
      return bearer(f.apiKey)
    case 'both':
      return { ...bearer(f.apiKey), 'X-Api-Key': f.apiKey }
    case 'mixed': {
      const token = { apiKey: f.apiKey, mobile: f.mobileToken, admin: f.userToken }[auth.first]
      return { ...bearer(token), 'X-Api-Key': auth.first === 'apiKey' ? f.mobileToken : f.apiKey }
    }
    case 'mobile':
      return bearer(f.mobileToken)
    case 'mobileHeader':
      return { 'X-Api-Key': f.mobileToken }
    case 'admin':
      return bearer(ADMIN_PLACEHOLDER)
    case 'user':
      return bearer(f.userToken)
    case 'none':
      return {}
    case 'garbage':
      return { [auth.header]: fill(auth.value) }
  }
}

/** Replaced by the administrator token in {@link buildRequest}. */
const ADMIN_PLACEHOLDER = '@ADMIN@'

function encodeJson(body: JsonBody, marker: string): string {
  return serialize(mutate(body.value, body.mutations), body.text).replaceAll(MARK, marker)
}

/**
 * The request of `plan` for `fixture`, and the markers of each envelope: one envelope with one
 * marker, except for a batch, whose lines are split the way the server splits them (`\n`, a
 * trailing `\r` dropped, blank lines skipped), so `markers[i]` belongs to `results[i]`.
 */
export function buildRequest(
  plan: RequestPlan,
  fixture: FuzzFixture,
  adminToken: string,
): { request: FuzzRequest; markers: string[][] } {
  const marker = nextMarker()
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(credentialHeaders(plan.auth, fixture))) {
    headers[k] = v.replaceAll(ADMIN_PLACEHOLDER, adminToken)
  }
  if (plan.contentType !== undefined) headers['Content-Type'] = plan.contentType
  let body: string | Uint8Array | undefined
  let markers = [[marker]]
  switch (plan.body.kind) {
    case 'json':
      body = encodeJson(plan.body, marker)
      if (plan.body.compression && plan.body.compression.kind !== 'none') {
        const c = plan.body.compression
        let bytes: Uint8Array = enc.encode(body)
        if (c.kind === 'gzip') bytes = gzipSync(bytes)
        if (c.kind === 'deflate') bytes = deflateSync(bytes)
        if (c.truncate) bytes = bytes.slice(0, Math.max(0, bytes.length - 9))
        headers['Content-Encoding'] = c.header
        body = bytes
      }
      break
    case 'bytes':
      body = plan.body.bytes
      break
    case 'none':
      break
    case 'ndjson': {
      const lineMarker = (i: number) => `${marker.slice(0, -1)}l${i}q`
      const text = plan.body.lines
        .map((line, i) =>
          (typeof line === 'string' ? line : encodeJson(line, lineMarker(i))).replaceAll(
            MARK,
            lineMarker(i),
          ),
        )
        .join(plan.body.separator)
      markers = text
        .split('\n')
        .map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
        .filter((line) => line.trim() !== '')
        .map((line) => line.match(MARKER_PATTERN) ?? [])
      let bytes: Uint8Array = enc.encode(text)
      if (plan.body.encoding.gzip) bytes = gzipSync(bytes)
      if (plan.body.encoding.truncate) bytes = bytes.slice(0, Math.max(0, bytes.length - 9))
      if (plan.body.encoding.header !== undefined)
        headers['Content-Encoding'] = plan.body.encoding.header
      body = bytes
      break
    }
  }
  if (plan.contentLength && body !== undefined) {
    headers['Content-Length'] = String(
      typeof body === 'string' ? enc.encode(body).length : body.length,
    )
  }
  return {
    request: {
      method: plan.method,
      path: plan.path(fixture),
      headers,
      ...(body === undefined ? {} : { body }),
    },
    markers,
  }
}

export { anyString }
