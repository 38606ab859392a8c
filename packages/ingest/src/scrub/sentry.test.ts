// One Sentry error event as an SDK sends it, mapped and normalised as ingest does, then
// scrubbed: the rules meet the shapes they will see in production.
import {
  parseCheckInEnvelope,
  parseDeploymentEnvelope,
  parseEventEnvelope,
  sentryEventEnvelope,
} from '@tis/schema'
import { describe, expect, it } from 'vitest'
import { createScrubber } from './scrub'
import { DEFAULT_SCRUB_SETTINGS } from './settings'

const scrubber = createScrubber({ ...DEFAULT_SCRUB_SETTINGS, scrubIpAddresses: true })

const sentryEvent = {
  event_id: '9f2c4e1a7b3d4f60a18293a4b5c6d7e8',
  exception: { values: [{ type: 'Error', value: 'charge 4111 1111 1111 1111 failed' }] },
  request: {
    url: 'https://api.acme.test/pay?card_token=tok_1&page=2',
    query_string: [
      ['card_token', 'tok_1'],
      ['page', '2'],
    ],
    headers: { Authorization: 'Bearer abc', Accept: '*/*', 'X-Forwarded-For': '203.0.113.7' },
  },
  user: { ip_address: '203.0.113.7' },
  breadcrumbs: {
    values: [{ category: 'http', data: { url: 'postgres://app:pw@db/x', api_key: 'k' } }],
  },
  contexts: {
    trace: { trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', span_id: '00f067aa0ba902b7' },
  },
}

describe('a normalised Sentry event', () => {
  const parsed = parseEventEnvelope(sentryEventEnvelope(sentryEvent))
  if (!parsed.ok) throw new Error('fixture rejected')
  const { value, report } = scrubber.event(parsed.value)

  it('is scrubbed where the mapping put each part', () => {
    expect(value.message).toBe('Error: charge [Filtered] failed')
    expect(value.context.exception?.['message']).toBe('charge [Filtered] failed')
    expect(value.context.request).toEqual({
      url: 'https://api.acme.test/pay?card_token=[Filtered]&page=2',
      query_string: '[["card_token","[Filtered]"],["page","2"]]',
      headers: { Authorization: '[Filtered]', Accept: '*/*', 'X-Forwarded-For': '[Filtered]' },
    })
    expect(value.context['user']).toEqual({ ip_address: '[Filtered]' })
    expect(value.context['breadcrumbs']).toEqual([
      { category: 'http', data: { url: 'postgres://app:[Filtered]@db/x', api_key: '[Filtered]' } },
    ])
  })

  it('keeps the correlation fields and drops the user_id taken from the IP address', () => {
    expect(parsed.value.user_id).toBe('203.0.113.7')
    expect(parsed.value.context.user_id).toBe('203.0.113.7')
    expect('user_id' in value).toBe(false)
    expect('user_id' in value.context).toBe(false)
    expect(value.trace_id).toBe('4bf92f3577b34da6a3ce929d0e0e4736')
    expect(value.span_id).toBe('00f067aa0ba902b7')
    expect(value.event_id).toBe(parsed.value.event_id)
  })

  it('counts each replacement by rule', () => {
    expect(report).toEqual({
      filtered: 11,
      // user_id twice: the normaliser copies it into context.
      rules: { credit_card: 2, sensitive_key: 4, ip_address: 4, url_password: 1 },
    })
  })
})

describe('normalised check-ins and deployments', () => {
  it('are accepted as they are typed', () => {
    const checkIn = parseCheckInEnvelope({ check_in: { slug: 'nightly', token: 't' } })
    const deployment = parseDeploymentEnvelope({
      deployment: {
        release: 'r',
        repository: 'acme/api',
        commit_sha: '9f2c4e1',
        github: { token: 'ghs_x' },
      },
    })
    if (!checkIn.ok || !deployment.ok) throw new Error('fixture rejected')
    expect(scrubber.checkIn(checkIn.value).value.token).toBe('[Filtered]')
    expect(scrubber.deployment(deployment.value).value.github).toEqual({ token: '[Filtered]' })
  })
})
