import { describe, expect, it } from 'vitest'
import type { CheckInRecord } from '../ports'
import { checkInJson, sentFields } from './check-ins'

const record = (fields: Partial<CheckInRecord>): CheckInRecord => ({
  id: '01a203af-0000-7000-8000-000000000001',
  status: 'ok',
  occurredAt: new Date('2026-06-01T02:00:00.000Z'),
  receivedAt: new Date('2026-06-01T02:00:01.500Z'),
  durationMs: 5300,
  environment: 'production',
  release: 'v42',
  traceId: 'trace-1',
  requestId: null,
  source: 'check_in',
  eventId: null,
  payload: {},
  ...fields,
})

describe('sentFields', () => {
  it("a compact check-in: its context object, and every field section 2.3 doesn't define", () => {
    const payload = {
      slug: 'nightly',
      status: 'ok',
      occurred_at: '2026-06-01T02:00:00.000Z',
      environment: 'production',
      release: null,
      expected_interval_seconds: 300,
      duration_ms: null,
      trace_id: null,
      request_id: null,
      checked_at: '2026-06-01T02:00:00Z',
      context: { host: 'worker-1', nested: { keepMe: true } },
      monitor_config: { schedule: '0 2 * * *' },
    }
    expect(sentFields({ source: 'check_in', payload })).toEqual({
      context: { host: 'worker-1', nested: { keepMe: true } },
      extra: { checked_at: '2026-06-01T02:00:00Z', monitor_config: { schedule: '0 2 * * *' } },
    })
  })

  it("the scheduler's missed row: the deadline facts in extra, no context", () => {
    const payload = {
      slug: 'nightly',
      status: 'missed',
      environment: 'production',
      expected_interval_seconds: 60,
      last_check_in_at: '2026-06-01T02:00:00.000Z',
      missed_after: '2026-06-01T02:01:30.000Z',
    }
    const json = checkInJson(record({ source: 'scheduler', status: 'missed', payload }))
    expect(json).toMatchObject({ source: 'scheduler', status: 'missed', message: null })
    expect(json.context).toEqual({})
    expect(json.extra).toEqual({
      last_check_in_at: '2026-06-01T02:00:00.000Z',
      missed_after: '2026-06-01T02:01:30.000Z',
    })
  })

  it('a context that is not an object stays in extra, as sent', () => {
    expect(sentFields({ source: 'check_in', payload: { slug: 's', context: 'cron' } })).toEqual({
      context: {},
      extra: { context: 'cron' },
    })
  })

  it("an event: its context, and its fields section 2.1 doesn't define", () => {
    const payload = {
      event_type: 'check_in',
      message: 'job ok',
      check_in_slug: 'job',
      occurred_at: '2026-06-01T02:00:00.000Z',
      context: { check_in_slug: 'job', check_in_status: 'ok' },
      attempt: 2,
    }
    expect(sentFields({ source: 'event', payload })).toEqual({
      context: { check_in_slug: 'job', check_in_status: 'ok' },
      extra: { attempt: 2 },
    })
  })
})

describe('checkInJson', () => {
  it('shows the stored columns, and the message of an event only', () => {
    const compact = checkInJson(record({ payload: { slug: 's', message: 'not an event' } }))
    expect(compact).toEqual({
      id: '01a203af-0000-7000-8000-000000000001',
      occurred_at: '2026-06-01T02:00:00.000Z',
      received_at: '2026-06-01T02:00:01.500Z',
      status: 'ok',
      duration_ms: 5300,
      environment: 'production',
      release: 'v42',
      trace_id: 'trace-1',
      request_id: null,
      source: 'check_in',
      event_id: null,
      message: null,
      context: {},
      extra: { message: 'not an event' },
    })
    const fromEvent = checkInJson(
      record({
        source: 'event',
        eventId: '01a203af-0000-7000-8000-0000000000ee',
        payload: { event_type: 'check_in', message: 'job failed', context: {} },
      }),
    )
    expect(fromEvent).toMatchObject({
      source: 'event',
      event_id: '01a203af-0000-7000-8000-0000000000ee',
      message: 'job failed',
      extra: {},
    })
  })
})
