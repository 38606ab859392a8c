import { describe, expect, it } from 'vitest'
import { parseCheckInEnvelope } from './check-in'
import { parseEventEnvelope } from './event'
import { acceptedValue } from './test-results'

const NOW = new Date('2026-03-01T10:00:00.000Z')
const AT = '2026-02-28T23:00:00Z'
const event = (fields: object) =>
  acceptedValue(
    parseEventEnvelope(
      { event: { message: 'job ok', check_in_slug: 'job', ...fields } },
      { now: NOW },
    ),
  )
const compact = (fields: object) =>
  acceptedValue(parseCheckInEnvelope({ check_in: { slug: 'job', ...fields } }, { now: NOW }))

// logister-js src/client.ts checkIn() sends the time as `checked_at` and no `occurred_at`.
describe('checked_at, an alias of occurred_at for check-ins', () => {
  it.each([['checked_at'], ['checkedAt'], ['CHECKED_AT']])('%s on a compact check-in', (key) => {
    const checkIn = compact({ [key]: AT })
    expect(checkIn.occurred_at).toBe(AT)
    expect(checkIn).not.toHaveProperty(key)
  })

  it.each([['checked_at'], ['checkedAt']])('%s on a check_in event', (key) => {
    const e = event({ event_type: 'check_in', [key]: AT })
    expect(e.occurred_at).toBe(AT)
    expect(e).not.toHaveProperty(key)
  })

  it('occurred_at wins when both are sent', () => {
    expect(compact({ checked_at: AT, occurred_at: '2026-01-01T00:00:00Z' }).occurred_at).toBe(
      '2026-01-01T00:00:00Z',
    )
    expect(
      event({ event_type: 'check_in', occurredAt: '2026-01-01T00:00:00Z', checked_at: AT })
        .occurred_at,
    ).toBe('2026-01-01T00:00:00Z')
  })

  it('is validated like occurred_at', () => {
    expect(parseCheckInEnvelope({ check_in: { slug: 'job', checked_at: 'now' } })).toMatchObject({
      status: 422,
      errors: ['occurred_at must be an RFC 3339 date-time (for example 2026-01-31T12:00:00Z)'],
    })
  })

  it('on other event types it is an unknown property, kept as sent', () => {
    const log = event({ event_type: 'log', checked_at: 'whenever' })
    expect(log.occurred_at).toBe(NOW.toISOString())
    expect(log['checked_at']).toBe('whenever')
  })
})
