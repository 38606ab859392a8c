import { describe, expect, it } from 'vitest'
import { parseCheckInEnvelope } from './check-in'
import { parseDeploymentEnvelope } from './deployment'
import { parseEventEnvelope } from './event'
import { parseMobileTokenEnvelope } from './mobile-token'
import { acceptedValue, errorsOf } from './test-results'
import { TRUNCATION_MARKER, truncateText } from './truncate'

const M = TRUNCATION_MARKER

describe('truncateText', () => {
  it.each([
    ['a string within the limit is unchanged', 'abc', 5, 'abc'],
    ['a string exactly at the limit is unchanged', 'x'.repeat(20), 20, 'x'.repeat(20)],
    [
      'one unit over is cut to the limit, marker inside',
      'x'.repeat(21),
      20,
      `${'x'.repeat(8)}${M}`,
    ],
    [
      'an emoji straddling the cut is dropped whole',
      `${'x'.repeat(7)}😀${'y'.repeat(20)}`,
      20,
      `${'x'.repeat(7)}${M}`,
    ],
    [
      'an emoji ending right at the cut is kept',
      `${'x'.repeat(6)}😀${'y'.repeat(20)}`,
      20,
      `${'x'.repeat(6)}😀${M}`,
    ],
    ['a limit shorter than the marker cuts without it', 'abcdef', 3, 'abc'],
  ])('%s', (_rule, value, max, expected) => {
    expect(truncateText(value, max)).toBe(expected)
    expect(truncateText(value, max).length).toBeLessThanOrEqual(max)
  })

  it('the marker is the documented one', () => {
    expect(M).toBe('…[truncated]')
  })
})

const NOW = new Date('2026-03-01T10:00:00.000Z')
const event = (fields: object) =>
  acceptedValue(
    parseEventEnvelope({ event: { event_type: 'log', message: 'm', ...fields } }, { now: NOW }),
  )
const cut = (n: number, c = 'x') => `${c.repeat(n - M.length)}${M}`
// biome-ignore lint/suspicious/noExplicitAny: reads a path of the accepted record
const at = (value: any, path: string[]) => path.reduce((v, k) => v?.[k], value)

describe('events: strings over their limit are cut', () => {
  const rows: Array<[string, object, string[], number]> = [
    ['message: 65,536', { message: 'x'.repeat(70_000) }, ['message'], 65_536],
    ['span name: 65,536', { event_type: 'span', name: 'x'.repeat(70_000) }, ['name'], 65_536],
    ['level: 1,024', { level: 'x'.repeat(2_000) }, ['level'], 1_024],
    ['fingerprint', { fingerprint: 'x'.repeat(2_000) }, ['fingerprint'], 1_024],
    ['environment', { environment: 'x'.repeat(2_000) }, ['environment'], 1_024],
    ['trace_id', { trace_id: 'x'.repeat(2_000) }, ['trace_id'], 1_024],
    ['user_id as a string', { user_id: 'x'.repeat(2_000) }, ['user_id'], 1_024],
    ['status as a string', { status: 'x'.repeat(2_000) }, ['status'], 1_024],
    [
      'transaction_name (a request path over 1,024 characters)',
      { transaction_name: 'x'.repeat(1_100) },
      ['transaction_name'],
      1_024,
    ],
    [
      'check_in_slug',
      { event_type: 'check_in', check_in_slug: 'x'.repeat(2_000) },
      ['check_in_slug'],
      1_024,
    ],
    [
      'kind',
      { event_type: 'span', name: 's', kind: 'x'.repeat(2_000) },
      ['context', 'kind'],
      1_024,
    ],
    [
      'context.transaction_name',
      { context: { transaction_name: 'x'.repeat(1_100) } },
      ['context', 'transaction_name'],
      1_024,
    ],
    [
      'context.tags value',
      { context: { tags: { a: 'x'.repeat(2_000) } } },
      ['context', 'tags', 'a'],
      1_024,
    ],
    [
      'context.exception.exception_class',
      { context: { exception: { exception_class: 'x'.repeat(2_000) } } },
      ['context', 'exception', 'exception_class'],
      1_024,
    ],
    [
      'context.request.method',
      { context: { request: { method: 'x'.repeat(2_000) } } },
      ['context', 'request', 'method'],
      1_024,
    ],
    [
      'context.request.url: 8,192',
      { context: { request: { url: 'x'.repeat(9_000) } } },
      ['context', 'request', 'url'],
      8_192,
    ],
    [
      'context.request.path: 8,192',
      { context: { request: { path: 'x'.repeat(9_000) } } },
      ['context', 'request', 'path'],
      8_192,
    ],
    [
      'context.request.query_string: 8,192',
      { context: { request: { query_string: 'x'.repeat(9_000) } } },
      ['context', 'request', 'query_string'],
      8_192,
    ],
    [
      'context.url of a transaction: 8,192',
      { event_type: 'transaction', context: { url: 'x'.repeat(9_000) } },
      ['context', 'url'],
      8_192,
    ],
  ]

  it.each(rows)('%s', (_rule, fields, path, limit) => {
    expect(at(event(fields), path)).toBe(cut(limit))
  })

  it('a value exactly at its limit is kept whole', () => {
    expect(event({ level: 'x'.repeat(1_024) }).level).toBe('x'.repeat(1_024))
    expect(event({ context: { request: { url: 'x'.repeat(8_192) } } }).context.request?.url).toBe(
      'x'.repeat(8_192),
    )
  })

  it('a tag key over 200 characters is cut to 200', () => {
    expect(
      Object.keys(event({ context: { tags: { ['k'.repeat(300)]: 'v' } } }).context.tags ?? {}),
    ).toEqual([cut(200, 'k')])
  })

  it('user context strings are untouched, whatever their length', () => {
    const long = 'x'.repeat(100_000)
    const context = event({
      context: { note: long, nested: { deep: long }, metadata: { m: long } },
    }).context
    expect(context['note']).toBe(long)
    expect(context['nested']).toEqual({ deep: long })
    expect(context.metadata).toEqual({ m: long })
  })

  it('fields with a format are validated, not cut', () => {
    expect(
      errorsOf(
        parseEventEnvelope({
          event: { event_type: 'log', message: 'm', commit_sha: 'a'.repeat(2_000) },
        }),
      ),
    ).toEqual(['commit_sha is invalid (must be 7 to 40 hexadecimal characters)'])
  })
})

describe('compact check-ins cut long strings too', () => {
  it.each(['slug', 'status', 'environment', 'release', 'trace_id', 'request_id'])('%s', (field) => {
    const checkIn = acceptedValue(
      parseCheckInEnvelope({ check_in: { slug: 's', [field]: 'x'.repeat(2_000) } }, { now: NOW }),
    )
    expect(checkIn[field]).toBe(cut(1_024))
  })
})

describe('explicit API calls keep their 422s', () => {
  it('a deployment release over 1,024 characters', () => {
    const deployment = { release: 'x'.repeat(1_025), repository: 'o/n', commit_sha: 'abcdef1' }
    expect(errorsOf(parseDeploymentEnvelope({ deployment }))).toEqual([
      'release is too long (maximum is 1024 characters)',
    ])
  })

  it('a mobile token service over 1,024 characters', () => {
    const request = { platform: 'ios', service: 'x'.repeat(1_025), environment: 'e' }
    expect(errorsOf(parseMobileTokenEnvelope({ mobile_ingest_token: request }))).toEqual([
      'service is too long (maximum is 1024 characters)',
    ])
  })
})
