import { describe, expect, it } from 'vitest'
import { parseEventEnvelope } from './event'
import { acceptedValue, errorsOf } from './test-results'

const parse = (event: object) => parseEventEnvelope({ event })

// Logister's clients send check-in events with their fields in context only.
describe('check_in events with their fields in context', () => {
  it("accepts the Ruby client's shape", () => {
    // logister-ruby lib/logister/reporter.rb report_check_in: the check-in fields in context.
    const sent = {
      event_type: 'check_in',
      message: 'job ok',
      context: { check_in_slug: 'job', check_in_status: 'ok', expected_interval_seconds: 600 },
    }
    expect(acceptedValue(parse(sent)).context).toMatchObject(sent.context)
  })

  it.each([['monitor_slug'], ['monitorSlug'], ['checkInSlug']])(
    'names the monitor through context.%s',
    (key) => {
      const event = acceptedValue(
        parse({ event_type: 'check_in', message: 'm', context: { [key]: 'job' } }),
      )
      expect(event.context.check_in_slug).toBe('job')
      expect(event.context).not.toHaveProperty(key)
    },
  )

  it('still needs a monitor somewhere', () => {
    expect(errorsOf(parse({ event_type: 'check_in', message: 'm', context: {} }))).toEqual([
      "check_in_slug can't be blank (a check_in event names its monitor)",
    ])
    expect(
      errorsOf(parse({ event_type: 'check_in', message: 'm', context: { check_in_slug: ' ' } })),
    ).toEqual(["check_in_slug can't be blank (a check_in event names its monitor)"])
  })

  it('keeps both values when top level and context disagree (the engine reads the top level)', () => {
    const event = acceptedValue(
      parse({
        event_type: 'check_in',
        message: 'm',
        check_in_slug: 'top',
        context: { check_in_slug: 'ctx', check_in_status: 'error' },
      }),
    )
    expect(event.check_in_slug).toBe('top')
    expect(event.context).toMatchObject({ check_in_slug: 'ctx', check_in_status: 'error' })
  })
})
