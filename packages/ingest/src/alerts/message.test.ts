import { describe, expect, it } from 'vitest'
import type { AlertPayload } from '../ports/alerts'
import { alertEmail } from './email'
import { type AlertMessageSource, alertText } from './message'
import { webhookBody } from './render'

const ISSUE: AlertPayload['issue'] = {
  id: 'i1',
  title: 'TypeError: x is undefined',
  level: 'error',
  status: 'unresolved',
  count: 3,
  first_seen_at: '2026-11-26T14:00:00.000Z',
  last_seen_at: '2026-11-26T14:05:00.000Z',
  last_release: '1.2.0',
  regression_count: 1,
}
const MONITOR: AlertPayload['monitor'] = {
  id: 'm1',
  slug: 'nightly',
  environment: 'production',
  state: 'missed',
  last_status: 'ok',
  last_check_in_at: '2026-11-26T13:00:00.000Z',
  expected_interval_seconds: 3600,
  missed_after: '2026-11-26T14:30:00.000Z',
}

const SUMMARY = { since: '2026-11-26T14:05:00.000Z', until: '2026-11-26T14:06:00.000Z' }

function source(trigger: AlertMessageSource['trigger'], payload: AlertPayload): AlertMessageSource {
  return {
    id: 'd1',
    projectId: 'p1',
    projectName: 'checkout',
    ruleId: 'r1',
    ruleName: 'errors',
    channelName: 'ops',
    trigger,
    payload,
    createdAt: new Date('2026-11-26T14:05:01.000Z'),
  }
}

describe('alertText', () => {
  it.each([
    ['new_issue', { issue: ISSUE }, 'New issue in checkout: TypeError: x is undefined'],
    ['regression', { issue: ISSUE }, 'Regression in checkout: TypeError: x is undefined'],
    [
      'spike',
      { issue: ISSUE, spike: { count: 120, threshold: 100, window_seconds: 60 } },
      'Spike in checkout: TypeError: x is undefined (120 events in 60 s)',
    ],
    [
      'monitor_missed',
      { monitor: MONITOR },
      'Monitor nightly (production) missed its check-in in checkout',
    ],
    ['monitor_failed', { monitor: MONITOR }, 'Monitor nightly (production) failed in checkout'],
    [
      'monitor_recovered',
      { monitor: MONITOR },
      'Monitor nightly (production) recovered in checkout',
    ],
    ['test', {}, 'Test notification for checkout: the channel "ops" works'],
    [
      'new_issue',
      { summary: { ...SUMMARY, count: 4990, issues: [ISSUE] } },
      '4,990 more new issues in checkout (14:05–14:06 UTC)',
    ],
    [
      'monitor_missed',
      { summary: { ...SUMMARY, count: 1, monitors: [MONITOR] } },
      '1 more monitor missed its check-in in checkout (14:05–14:06 UTC)',
    ],
  ] as const)('%s', (trigger, payload, text) => {
    expect(alertText(source(trigger, payload))).toBe(text)
  })
})

describe('webhookBody', () => {
  it('carries only the parts of the cause it has; a test has no rule and no subject', () => {
    const body = webhookBody({ ...source('test', {}), ruleId: null, ruleName: null })
    expect(body).toEqual({
      id: 'd1',
      type: 'test',
      created_at: '2026-11-26T14:05:01.000Z',
      text: 'Test notification for checkout: the channel "ops" works',
      project: { id: 'p1', name: 'checkout' },
      rule: null,
    })
    expect(Object.keys(webhookBody(source('monitor_missed', { monitor: MONITOR })))).toEqual([
      'id',
      'type',
      'created_at',
      'text',
      'project',
      'rule',
      'monitor',
    ])
  })
})

describe('summaries', () => {
  it('the webhook carries the summary; Slack and email list its subjects', () => {
    const summary = { ...SUMMARY, count: 12, issues: [ISSUE, { ...ISSUE, id: 'i2', title: 'B' }] }
    const body = webhookBody(source('new_issue', { summary }))
    expect(body.summary).toEqual(summary)
    expect(body).not.toHaveProperty('issue')
    const email = alertEmail(source('new_issue', { summary }), ['a@example.com'])
    expect(email.subject).toBe('[tis] 12 more new issues in checkout (14:05–14:06 UTC)')
    expect(email.text).toContain(
      '\nIssue: TypeError: x is undefined (3 events)\nIssue: B (3 events)\n',
    )
    expect(email.text).toContain(
      "Summary: 12 between 2026-11-26T14:05:00.000Z and 2026-11-26T14:06:00.000Z, beyond the rule's ten messages a minute",
    )
  })
})

describe('alertEmail', () => {
  it('has a one-line subject, the facts as text lines, and escaped HTML', () => {
    const email = alertEmail(
      source('new_issue', { issue: { ...ISSUE, title: 'Boom <script>\r\nSubject: spoof' } }),
      ['a@example.com'],
    )
    expect(email.subject).toBe('[tis] New issue in checkout: Boom <script> Subject: spoof')
    expect(email.text).toContain('\nLevel: error\n')
    expect(email.text).toContain('Delivery d1')
    expect(email.html).toContain('Boom &lt;script&gt;')
    expect(email.html).not.toContain('<script>')
    expect(email.to).toEqual(['a@example.com'])
  })
})
