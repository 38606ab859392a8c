import {
  type NormalizedEvent,
  type ParseResult,
  parseCheckInEnvelope,
  parseEventEnvelope,
} from '@tis/schema'
import { describe, expect, it } from 'vitest'
import { monitorFromCheckIn, monitorFromEvent } from './records'

const NOW = new Date('2026-03-01T10:00:00.000Z')
const AT = '2026-03-01T09:59:00Z'
const SERVICE_ENV = 'service-env'

function value<T>(result: ParseResult<T>): T {
  if (!result.ok) throw new Error(JSON.stringify(result))
  return result.value
}
const fromEvent = (event: object) =>
  monitorFromEvent(
    value(parseEventEnvelope({ event }, { now: NOW })) as NormalizedEvent,
    SERVICE_ENV,
  )

const fields = {
  environment: 'prod',
  release: 'v7',
  expected_interval_seconds: 600,
  duration_ms: 1234.5,
  trace_id: 'trace-1',
  request_id: 'req-1',
}

// The three shapes of one check-in move the monitor identically.
describe('monitor updates of the three check-in shapes', () => {
  const compact = monitorFromCheckIn(
    value(
      parseCheckInEnvelope(
        { check_in: { slug: 'job', status: 'error', occurred_at: AT, ...fields } },
        { now: NOW, serviceEnvironment: SERVICE_ENV },
      ),
    ),
  )

  it.each([
    ['top-level fields', { check_in_slug: 'job', check_in_status: 'error', ...fields }],
    [
      'fields only in context (logister-ruby reporter.rb report_check_in)',
      { context: { check_in_slug: 'job', check_in_status: 'error', ...fields } },
    ],
    [
      'monitor_slug in context',
      { context: { monitor_slug: 'job', check_in_status: 'error', ...fields } },
    ],
  ])('%s', (_shape, sent) => {
    expect(
      fromEvent({ event_type: 'check_in', message: 'job error', occurred_at: AT, ...sent }),
    ).toEqual(compact)
  })

  it('a top-level value wins over the one in context', () => {
    const update = fromEvent({
      event_type: 'check_in',
      message: 'm',
      check_in_slug: 'top',
      expected_interval_seconds: 60,
      context: { check_in_slug: 'ctx', expected_interval_seconds: 900, check_in_status: 'error' },
    })
    expect(update).toMatchObject({
      slug: 'top',
      expectedIntervalSeconds: 60,
      status: 'error',
      health: 'error',
    })
  })

  it('applies the check-in defaults when neither place sets a field', () => {
    expect(
      fromEvent({ event_type: 'check_in', message: 'm', context: { check_in_slug: 'job' } }),
    ).toMatchObject({
      slug: 'job',
      environment: SERVICE_ENV,
      status: 'ok',
      health: 'ok',
      release: null,
      expectedIntervalSeconds: 300,
      durationMs: null,
      traceId: null,
      requestId: null,
    })
  })
})
