import { describe, expect, it } from 'vitest'
import { CONTEXT_COPY_FIELDS } from './context'
import { EVENT_TYPES, SPAN_KINDS } from './enums'
import { type NormalizedEvent, parseEventEnvelope } from './event'
import { acceptedValue, errorsOf } from './test-results'
import { TRUNCATION_MARKER } from './truncate'

const NOW = new Date('2026-03-01T10:00:00.000Z')
const base = { event_type: 'error', message: 'boom' }
const parse = (event: object) => parseEventEnvelope({ event }, { now: NOW })

const accepted = (event: object): NormalizedEvent => acceptedValue(parse(event))

const rejected = (event: object) => errorsOf(parse(event))

describe('event_type', () => {
  it.each(EVENT_TYPES)('accepts %s', (type) => {
    const event =
      type === 'span'
        ? { event_type: type, name: 'x' }
        : { event_type: type, message: 'x', check_in_slug: 'nightly' }
    expect(accepted(event).event_type).toBe(type)
  })

  it.each([['Error'], ['exception'], [''], [1], [true]])('rejects %j', (value) => {
    expect(rejected({ ...base, event_type: value })).toEqual([
      'event_type is not included in the list (error, log, metric, transaction, span, check_in)',
    ])
  })

  it('is required', () => {
    expect(rejected({ message: 'x' })).toEqual(["event_type can't be blank"])
  })
})

describe('message and name', () => {
  it.each(EVENT_TYPES.filter((t) => t !== 'span'))('message is required for %s', (type) => {
    expect(rejected({ event_type: type, check_in_slug: 'nightly' })).toEqual([
      "message can't be blank",
    ])
  })

  it('a check_in event must name its monitor through check_in_slug or monitor_slug', () => {
    expect(rejected({ event_type: 'check_in', message: 'ran' })).toEqual([
      "check_in_slug can't be blank (a check_in event names its monitor)",
    ])
    expect(
      accepted({ event_type: 'check_in', message: 'ran', monitor_slug: 'm' }).check_in_slug,
    ).toBe('m')
  })

  it.each([[''], ['   '], ['\n\t']])('a blank message %j is missing', (message) => {
    expect(rejected({ event_type: 'log', message })).toEqual(["message can't be blank"])
  })

  it('a span may be labelled by name alone', () => {
    expect(accepted({ event_type: 'span', name: 'GET /orders' }).name).toBe('GET /orders')
  })

  it('a span may be labelled by message alone', () => {
    expect(accepted({ event_type: 'span', message: 'SELECT 1' }).message).toBe('SELECT 1')
  })

  it('a span needs a name or a message', () => {
    expect(rejected({ event_type: 'span', name: ' ' })).toEqual([
      "name can't be blank (a span needs a name or a message)",
    ])
  })

  it('message must be a string', () => {
    expect(rejected({ event_type: 'log', message: 42 })).toEqual(['message must be a string'])
  })

  it('keeps a message of exactly 65,536 characters and cuts one more to the limit', () => {
    expect(accepted({ ...base, message: 'x'.repeat(65_536) }).message).toBe('x'.repeat(65_536))
    const cut = accepted({ ...base, message: 'x'.repeat(65_537) }).message
    expect(cut).toHaveLength(65_536)
    expect(cut?.endsWith(TRUNCATION_MARKER)).toBe(true)
  })

  it('accepts a 10 MB message, cut to 65,536 characters', () => {
    const cut = accepted({ ...base, message: 'x'.repeat(10 * 1024 * 1024) }).message
    expect(cut).toBe(`${'x'.repeat(65_536 - TRUNCATION_MARKER.length)}${TRUNCATION_MARKER}`)
  })
})

describe('camelCase, PascalCase and UPPER_CASE field names', () => {
  const rows: Array<[string, string, unknown]> = [
    ['eventType', 'event_type', 'error'],
    ['EVENT_TYPE', 'event_type', 'error'],
    ['MESSAGE', 'message', 'boom'],
    ['Message', 'message', 'boom'],
    ['LEVEL', 'level', 'fatal'],
    ['FINGERPRINT', 'fingerprint', 'fp'],
    ['occurredAt', 'occurred_at', '2026-01-01T00:00:00Z'],
    ['ENVIRONMENT', 'environment', 'staging'],
    ['Release', 'release', 'v2'],
    ['commitSha', 'commit_sha', 'abcdef1'],
    ['COMMIT_SHA', 'commit_sha', 'abcdef1'],
    ['traceId', 'trace_id', 't-1'],
    ['TRACE_ID', 'trace_id', 't-1'],
    ['traceID', 'trace_id', 't-1'],
    ['requestId', 'request_id', 'r-1'],
    ['sessionId', 'session_id', 's-1'],
    ['userId', 'user_id', 'u-1'],
    ['USER_ID', 'user_id', 7],
    ['transactionName', 'transaction_name', 'GET /x'],
    ['durationMs', 'duration_ms', 12.5],
    ['DURATION_MS', 'duration_ms', 12.5],
    ['expectedIntervalSeconds', 'expected_interval_seconds', 60],
    ['checkInSlug', 'check_in_slug', 'nightly'],
    ['checkInStatus', 'check_in_status', 'ok'],
    ['spanId', 'span_id', 'a1'],
    ['parentSpanId', 'parent_span_id', 'a0'],
    ['startedAt', 'started_at', '2026-01-01T00:00:00Z'],
    ['endedAt', 'ended_at', '2026-01-01T00:00:01Z'],
    ['Branch', 'branch', 'main'],
  ]

  it.each(rows)('%s → %s', (sent, canonical, value) => {
    const event = accepted({ ...base, [sent]: value })
    expect(event[canonical]).toEqual(value)
    if (sent !== canonical) expect(event).not.toHaveProperty(sent)
  })

  it('accepts a whole event written in UPPER_CASE inside an uppercase envelope', () => {
    const result = parseEventEnvelope({
      EVENT: { EVENT_TYPE: 'log', MESSAGE: 'hi', TRACE_ID: 't', CONTEXT: { REQUEST_ID: 'r' } },
    })
    expect(result).toMatchObject({
      ok: true,
      value: {
        event_type: 'log',
        message: 'hi',
        trace_id: 't',
        context: { request_id: 'r', trace_id: 't' },
      },
    })
  })
})

describe('aliases', () => {
  it.each([
    ['repo', 'repository', 'o/n', 'o/n'],
    ['github_repository', 'repository', 'o/n', 'o/n'],
    ['githubRepository', 'repository', 'o/n', 'o/n'],
    ['commitSha', 'commit_sha', 'ABCDEF1', 'abcdef1'],
    ['monitor_slug', 'check_in_slug', 'nightly', 'nightly'],
    ['monitorSlug', 'check_in_slug', 'nightly', 'nightly'],
    ['span_kind', 'kind', 'db', 'db'],
    ['spanKind', 'kind', 'db', 'db'],
    ['userId', 'user_id', 9, 9],
  ])('%s → %s', (alias, canonical, sent, stored) => {
    const event = accepted({ ...base, [alias]: sent })
    expect(event[canonical]).toEqual(stored)
    expect(event).not.toHaveProperty(alias)
  })

  it('the canonical name wins over an alias sent with it', () => {
    expect(accepted({ ...base, repo: 'a/b', repository: 'c/d' }).repository).toBe('c/d')
    expect(accepted({ ...base, span_kind: 'db', kind: 'http' }).kind).toBe('http')
  })
})

describe('bounds and types', () => {
  const rows: Array<[string, string, unknown, string | null]> = [
    ['duration_ms 0 is inside', 'duration_ms', 0, null],
    ['duration_ms may be fractional', 'duration_ms', 0.25, null],
    [
      'duration_ms just below 0 is outside',
      'duration_ms',
      -0.001,
      'duration_ms must be greater than or equal to 0',
    ],
    ['duration_ms as a string', 'duration_ms', '12', 'duration_ms must be a number'],
    ['expected_interval_seconds 1 is inside', 'expected_interval_seconds', 1, null],
    [
      'expected_interval_seconds 0 is outside',
      'expected_interval_seconds',
      0,
      'expected_interval_seconds must be greater than or equal to 1',
    ],
    [
      'expected_interval_seconds must be whole',
      'expected_interval_seconds',
      1.5,
      'expected_interval_seconds must be an integer',
    ],
    [
      'expected_interval_seconds as a string',
      'expected_interval_seconds',
      '60',
      'expected_interval_seconds must be an integer',
    ],
    ['user_id as a string', 'user_id', 'u-1', null],
    ['user_id as an integer', 'user_id', 42, null],
    ['user_id as a fraction', 'user_id', 1.5, 'user_id must be a string or an integer'],
    ['user_id as a boolean', 'user_id', true, 'user_id must be a string or an integer'],
    ['user_id as an object', 'user_id', {}, 'user_id must be a string or an integer'],
    ['status as an integer', 'status', 503, null],
    ['status as a string', 'status', 'ok', null],
    ['status as a fraction', 'status', 2.5, 'status must be a string or an integer'],
    ['status as an array', 'status', [200], 'status must be a string or an integer'],
    ['commit_sha of 7 hex', 'commit_sha', 'abcdef1', null],
    ['commit_sha of 40 hex', 'commit_sha', 'a'.repeat(40), null],
    [
      'commit_sha of 6 hex',
      'commit_sha',
      'abcdef',
      'commit_sha is invalid (must be 7 to 40 hexadecimal characters)',
    ],
    [
      'commit_sha of 41 hex',
      'commit_sha',
      'a'.repeat(41),
      'commit_sha is invalid (must be 7 to 40 hexadecimal characters)',
    ],
    [
      'commit_sha not hex',
      'commit_sha',
      'abcdefg',
      'commit_sha is invalid (must be 7 to 40 hexadecimal characters)',
    ],
    ['repository owner/name', 'repository', 'octo/app', null],
    [
      'repository without owner',
      'repository',
      'app',
      'repository must be a repository full name in owner/name form',
    ],
    [
      'repository with three parts',
      'repository',
      'a/b/c',
      'repository must be a repository full name in owner/name form',
    ],
    ['occurred_at RFC 3339', 'occurred_at', '2026-01-01T00:00:00+01:00', null],
    [
      'occurred_at without offset',
      'occurred_at',
      '2026-01-01T00:00:00',
      'occurred_at must be an RFC 3339 date-time (for example 2026-01-31T12:00:00Z)',
    ],
    [
      'started_at not a date',
      'started_at',
      'soon',
      'started_at must be an RFC 3339 date-time (for example 2026-01-31T12:00:00Z)',
    ],
    ['ended_at a number', 'ended_at', 1, 'ended_at must be a string'],
    ['trace_id a number', 'trace_id', 1, 'trace_id must be a string'],
    ['level of 1,024 characters', 'level', 'l'.repeat(1024), null],
    ['level of 1,025 characters is cut, not refused', 'level', 'l'.repeat(1025), null],
    ['kind outside the list is stored as internal', 'kind', 'sql', null],
    ['kind that is not a string', 'kind', 7, 'kind must be a string'],
  ]

  it.each(rows)('%s', (_rule, field, value, error) => {
    if (error === null) expect(parse({ ...base, [field]: value }).ok).toBe(true)
    else expect(rejected({ ...base, [field]: value })).toEqual([error])
  })

  it.each(SPAN_KINDS)('kind %s is accepted', (kind) => {
    expect(accepted({ event_type: 'span', name: 's', kind }).kind).toBe(kind)
  })

  it('null on an optional field means not given', () => {
    const event = accepted({ ...base, trace_id: null, duration_ms: null, context: null })
    expect(event).not.toHaveProperty('trace_id')
    expect(event.context).toEqual({})
  })

  it('a span may not end before it starts', () => {
    expect(
      rejected({
        event_type: 'span',
        name: 's',
        started_at: '2026-01-01T00:00:01Z',
        ended_at: '2026-01-01T00:00:00.500Z',
      }),
    ).toEqual(['ended_at must not be before started_at'])
  })

  it('reports every problem at once, in the documented field order', () => {
    expect(
      rejected({
        context: { duration_ms: -1 },
        duration_ms: -1,
        user_id: false,
        event_type: 'log',
        occurred_at: 'x',
      }),
    ).toEqual([
      "message can't be blank",
      'occurred_at must be an RFC 3339 date-time (for example 2026-01-31T12:00:00Z)',
      'user_id must be a string or an integer',
      'duration_ms must be greater than or equal to 0',
      'context.duration_ms must be greater than or equal to 0',
    ])
  })

  it('accepts a body nested exactly 64 levels deep and rejects 65', () => {
    const nest = (levels: number) => {
      let value: unknown = 'leaf'
      for (let i = 0; i < levels; i++) value = { a: value }
      return value
    }
    // body (1) → event (2) → context (3) → 61 more objects = 64 levels
    expect(parse({ ...base, context: nest(62) }).ok).toBe(true)
    expect(rejected({ ...base, context: nest(63) })).toEqual([
      'event is nested too deeply (maximum is 64 levels)',
    ])
  })
})

describe('context', () => {
  it('must be an object', () => {
    expect(rejected({ ...base, context: 'x' })).toEqual(['context must be an object'])
    expect(rejected({ ...base, context: [1] })).toEqual(['context must be an object'])
  })

  it('keeps unknown keys and nested free objects as sent', () => {
    const context = { anything: { goes: [1, 'two', null] }, customKey: true }
    expect(accepted({ ...base, context }).context).toMatchObject(context)
  })

  it('renames camelCase and aliased context keys', () => {
    const event = accepted({
      ...base,
      context: {
        traceId: 't',
        durationMs: 3,
        commitSha: 'ABCDEF12',
        repo: 'https://github.com/o/n.git',
        exception: { exceptionClass: 'TypeError', stackFrames: [] },
        request: { queryString: 'a=1', requestId: 'r', Method: 'GET', customHeader: 'x' },
      },
    })
    expect(event.context).toMatchObject({
      trace_id: 't',
      duration_ms: 3,
      commit_sha: 'abcdef12',
      repository: 'o/n',
      exception: { exception_class: 'TypeError', stackFrames: [] },
      request: { query_string: 'a=1', request_id: 'r', method: 'GET', customHeader: 'x' },
    })
  })

  it.each([
    [
      'tags must map strings to strings',
      { tags: { region: 1 } },
      'context.tags.region must be a string',
    ],
    ['tags must be an object', { tags: ['a'] }, 'context.tags must be an object of string values'],
    ['value must be a number', { value: '3' }, 'context.value must be a number'],
    [
      'duration_ms ≥ 0',
      { duration_ms: -5 },
      'context.duration_ms must be greater than or equal to 0',
    ],
    [
      'user_id string or integer',
      { user_id: 1.1 },
      'context.user_id must be a string or an integer',
    ],
    [
      'exception must be an object',
      { exception: 'TypeError' },
      'context.exception must be an object',
    ],
    [
      'exception_class must be a string',
      { exception: { exception_class: 1 } },
      'context.exception.exception_class must be a string',
    ],
    ['request must be an object', { request: 'GET /' }, 'context.request must be an object'],
    [
      'request.headers must be an object',
      { request: { headers: 'x' } },
      'context.request.headers must be an object',
    ],
    ['metadata must be an object', { metadata: 1 }, 'context.metadata must be an object'],
    [
      'commit_sha pattern',
      { commit_sha: 'xyz' },
      'context.commit_sha is invalid (must be 7 to 40 hexadecimal characters)',
    ],
  ])('%s', (_rule, context, error) => {
    expect(rejected({ ...base, context })).toEqual([error])
  })

  it('accepts every known property with a valid value', () => {
    const context = {
      environment: 'prod',
      release: 'v1',
      branch: 'main',
      service: 'api',
      commit_sha: 'abcdef1',
      repository: 'o/n',
      trace_id: 't',
      request_id: 'r',
      session_id: 's',
      user_id: 5,
      transaction_name: 'GET /',
      duration_ms: 1,
      value: -3.5,
      unit: 'ms',
      tags: { a: 'b' },
      exception: { exception_class: 'Error' },
      request: {
        method: 'GET',
        url: 'https://x.test/',
        path: '/',
        query_string: '',
        route: '/',
        headers: {},
        params: {},
        request_id: 'r',
      },
      method: 'GET',
      url: 'https://x.test/',
      check_in_slug: 'c',
      check_in_status: 'ok',
      expected_interval_seconds: 60,
      metadata: { k: 1 },
    }
    expect(accepted({ ...base, context }).context).toEqual(context)
  })
})

describe('convenience copying into context', () => {
  const values: Record<(typeof CONTEXT_COPY_FIELDS)[number], unknown> = {
    environment: 'staging',
    release: 'v3',
    trace_id: 'trace',
    request_id: 'req',
    session_id: 'sess',
    user_id: 12,
    transaction_name: 'GET /a',
    duration_ms: 4,
    span_id: 's1',
    parent_span_id: 's0',
    kind: 'db',
    started_at: '2026-01-01T00:00:00Z',
    ended_at: '2026-01-01T00:00:01Z',
    expected_interval_seconds: 30,
    check_in_slug: 'job',
    check_in_status: 'error',
    status: 500,
  }

  it.each(CONTEXT_COPY_FIELDS)('copies %s when context lacks it', (field) => {
    expect(accepted({ ...base, [field]: values[field] }).context[field]).toEqual(values[field])
  })

  it.each(CONTEXT_COPY_FIELDS)('never overwrites context.%s', (field) => {
    const own =
      field === 'kind'
        ? 'http'
        : field === 'user_id' || field === 'status'
          ? 99
          : field.endsWith('_at')
            ? '2025-01-01T00:00:00Z'
            : field === 'duration_ms' || field === 'expected_interval_seconds'
              ? 77
              : 'own'
    const event = accepted({ ...base, [field]: values[field], context: { [field]: own } })
    expect(event.context[field]).toEqual(own)
    expect(event[field]).toEqual(values[field])
  })

  it.each([
    ['traceId', 'trace_id'],
    ['requestId', 'request_id'],
    ['sessionId', 'session_id'],
    ['userId', 'user_id'],
    ['transactionName', 'transaction_name'],
    ['durationMs', 'duration_ms'],
    ['spanId', 'span_id'],
    ['parentSpanId', 'parent_span_id'],
    ['span_kind', 'kind'],
    ['spanKind', 'kind'],
    ['startedAt', 'started_at'],
    ['endedAt', 'ended_at'],
    ['expectedIntervalSeconds', 'expected_interval_seconds'],
    ['checkInSlug', 'check_in_slug'],
    ['monitor_slug', 'check_in_slug'],
    ['checkInStatus', 'check_in_status'],
  ])('copies the camelCase or alias form %s as context.%s', (sent, canonical) => {
    const value = values[canonical as keyof typeof values]
    expect(accepted({ ...base, [sent]: value }).context[canonical]).toEqual(value)
  })

  it.each(['message', 'level', 'fingerprint', 'commit_sha', 'repository', 'branch', 'name'])(
    'does not copy %s, which is not in the list',
    (field) => {
      const value = field === 'commit_sha' ? 'abcdef1' : field === 'repository' ? 'o/n' : 'v'
      expect(accepted({ ...base, [field]: value }).context).not.toHaveProperty(field)
    },
  )
})

describe('defaults and unknown properties', () => {
  it('occurred_at defaults to the receive time', () => {
    expect(accepted(base).occurred_at).toBe(NOW.toISOString())
  })

  it('a span without occurred_at takes started_at', () => {
    expect(
      accepted({ event_type: 'span', name: 's', started_at: '2026-01-01T00:00:00Z' }).occurred_at,
    ).toBe('2026-01-01T00:00:00Z')
  })

  it('keeps an explicit occurred_at as sent', () => {
    expect(accepted({ ...base, occurred_at: '2025-12-31T23:59:59.5-01:00' }).occurred_at).toBe(
      '2025-12-31T23:59:59.5-01:00',
    )
  })

  it('keeps unknown top-level properties', () => {
    expect(accepted({ ...base, sdk: { name: 'x' }, customFlag: true })).toMatchObject({
      sdk: { name: 'x' },
      customFlag: true,
    })
  })
})

describe('event_id', () => {
  const id = '0190B1C2-3D4E-7F80-9A1B-2C3D4E5F6071'

  it.each([['event_id'], ['eventId'], ['uuid'], ['EVENT_ID']])(
    'accepts a UUID as %s, stored lower-case',
    (key) => {
      expect(accepted({ ...base, [key]: id }).event_id).toBe(id.toLowerCase())
    },
  )

  it('is optional', () => {
    expect(accepted(base).event_id).toBeUndefined()
  })

  it.each([['not-a-uuid'], [''], ['0190b1c23d4e7f809a1b2c3d4e5f6071'], [42]])(
    'rejects %j with a message naming the field',
    (value) => {
      expect(rejected({ ...base, event_id: value })).toEqual([
        typeof value === 'number'
          ? 'event_id must be a string'
          : 'event_id is invalid (must be a UUID such as 0190b1c2-3d4e-7f80-9a1b-2c3d4e5f6071)',
      ])
    },
  )

  it('prefers event_id over its alias uuid', () => {
    const other = '11111111-2222-4333-8444-555555555555'
    expect(accepted({ ...base, uuid: other, event_id: id }).event_id).toBe(id.toLowerCase())
  })
})
