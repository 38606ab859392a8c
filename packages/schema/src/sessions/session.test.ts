import { describe, expect, it } from 'vitest'
import { parseSessionEnvelope } from './envelope'
import { readSessionAggregate, readSessionUpdate } from './session'

const now = new Date('2026-12-01T12:00:00.000Z')
const attrs = { release: 'shop@1.0', environment: 'staging' }

describe('session items', () => {
  it('reads an update as Sentry SDKs send it (ISO or epoch seconds, Python without a zone)', () => {
    const js = readSessionUpdate(
      {
        sid: 'AB12',
        init: true,
        started: '2026-12-01T11:59:00.123Z',
        timestamp: 1796126340,
        status: 'ok',
        errors: 0,
        did: 42,
        attrs,
      },
      now,
    )
    expect(js).toEqual({
      ok: true,
      value: {
        kind: 'update',
        sid: 'ab12',
        did: '42',
        seq: null,
        init: true,
        started: '2026-12-01T11:59:00.123Z',
        timestamp: '2026-12-01T11:59:00.000Z',
        duration: null,
        status: 'ok',
        errors: 0,
        release: 'shop@1.0',
        environment: 'staging',
      },
    })
    const py = readSessionUpdate(
      { sid: 's', started: '2026-12-01T11:00:00.000001', attrs: { release: 'r' } },
      now,
    )
    expect(py.ok && py.value).toMatchObject({
      started: '2026-12-01T11:00:00.000Z',
      status: 'ok',
      environment: 'production',
    })
  })

  it('names every problem of an unusable update', () => {
    const bad = readSessionUpdate(
      { status: 'gone', started: '2026-11-01T00:00:00Z', errors: -1, attrs: { release: 'latest' } },
      now,
    )
    expect(bad).toEqual({
      ok: false,
      errors: [
        'session.attrs.release must be 1 to 200 characters without slashes or line breaks, and not ".", ".." or "latest"',
        "session.sid is required: the session's id, up to 128 characters",
        'session.status must be one of ok, exited, crashed, abnormal, errored, unhandled',
        'session.errors must be an integer from 0 to 1000000000',
      ],
    })
    expect(
      readSessionUpdate({ sid: 's', started: '2026-12-01T13:00:00Z', attrs }, now),
    ).toMatchObject({ ok: false, errors: ['session.started is in the future'] })
  })

  it('reads aggregates to the minute, leaving out empty buckets', () => {
    const read = readSessionAggregate(
      {
        aggregates: [
          { started: '2026-12-01T11:58:42Z', exited: 3, crashed: 1 },
          { started: '2026-12-01T11:59:00Z', did: 'u', errored: 0 },
        ],
        attrs,
      },
      now,
    )
    expect(read.ok && read.value).toEqual({
      kind: 'aggregate',
      release: 'shop@1.0',
      environment: 'staging',
      buckets: [
        {
          started: '2026-12-01T11:58:00.000Z',
          did: null,
          exited: 3,
          errored: 0,
          abnormal: 0,
          crashed: 1,
        },
      ],
    })
    expect(readSessionAggregate({ aggregates: [{ exited: 1.5 }], attrs }, now)).toMatchObject({
      ok: false,
      errors: [
        'sessions.aggregates[0].started must be an ISO 8601 date-time or seconds since the epoch',
        'sessions.aggregates[0].exited must be an integer from 0 to 1000000000',
      ],
    })
  })
})

describe('parseSessionEnvelope', () => {
  it('takes session or sessions (either case) and refuses anything else', () => {
    const update = { sid: 's', started: '2026-12-01T11:59:00Z', attrs }
    expect(parseSessionEnvelope({ SESSION: update }, now).ok).toBe(true)
    expect(parseSessionEnvelope({}, now)).toEqual({
      ok: false,
      status: 400,
      error: 'param is missing or the value is empty: session (or sessions)',
    })
    expect(parseSessionEnvelope({ session: update, extra: 1 }, now)).toEqual({
      ok: false,
      status: 422,
      errors: ['extra is not a permitted root key (send one of session or sessions)'],
    })
  })
})
