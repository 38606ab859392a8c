import { describe, expect, it } from 'vitest'
import { dataScrubbingBody } from './data-scrubbing-section'
import { scrubbingLine } from './event-context'

// The settings form → the `PUT …/data_scrubbing` body, and an event's report in words: one row
// per rule.
describe('dataScrubbingBody', () => {
  it.each([
    [
      'checked boxes are true, names are split at lines and commas, trimmed, blanks dropped',
      {
        enabled: '1',
        extra_fields: ' ssn,customer_note\r\n\n pin ',
        safe_fields: 'session,',
        scrub_ip_addresses: '1',
      },
      {
        enabled: true,
        extra_fields: ['ssn', 'customer_note', 'pin'],
        safe_fields: ['session'],
        scrub_ip_addresses: true,
      },
    ],
    [
      'an unchecked box is not sent: false; empty lists clear',
      { extra_fields: '', safe_fields: '' },
      { enabled: false, extra_fields: [], safe_fields: [], scrub_ip_addresses: false },
    ],
    [
      'a list the form did not send keeps its value',
      {},
      { enabled: false, scrub_ip_addresses: false },
    ],
  ])('%s', (_rule, form, body) => {
    expect(dataScrubbingBody(form)).toEqual({ data_scrubbing: body })
  })
})

describe('scrubbingLine', () => {
  it.each([
    [
      'the count and each rule in words, the most frequent first',
      { filtered: 3, rules: { credit_card: 1, sensitive_key: 2 } },
      '3 values filtered by data scrubbing (sensitive key 2, credit card 1)',
    ],
    [
      'one value',
      { filtered: 1, rules: { ip_address: 1 } },
      '1 value filtered by data scrubbing (ip address 1)',
    ],
    ['no rules named', { filtered: 2 }, '2 values filtered by data scrubbing'],
    ['nothing filtered', { filtered: 0, rules: {} }, null],
    ['no report', undefined, null],
    ['not a report', 'lots', null],
  ])('%s', (_rule, report, line) => {
    expect(scrubbingLine(report)).toBe(line)
  })
})
