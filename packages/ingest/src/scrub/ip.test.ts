import { describe, expect, it } from 'vitest'
import { createScrubber } from './scrub'
import { DEFAULT_SCRUB_SETTINGS } from './settings'

const on = createScrubber({ ...DEFAULT_SCRUB_SETTINGS, scrubIpAddresses: true })
const off = createScrubber(DEFAULT_SCRUB_SETTINGS)

const event = {
  message: 'm',
  user_id: '203.0.113.7',
  context: {
    user_id: '2001:db8::1',
    user: { ip_address: '{{auto}}', email: 'a@b.test' },
    request: {
      headers: {
        'X-Forwarded-For': '203.0.113.7, 10.0.0.1',
        'x-real-ip': '203.0.113.7',
        Accept: '*/*',
      },
      env: { REMOTE_ADDR: '203.0.113.7' },
    },
    otel: { 'client.address': '::1', 'network.peer.address': '10.0.0.2', 'net.peer.ip': '' },
  },
}

describe('ip_address', () => {
  it('filters IP keys and drops a user_id that is an IP literal, when on', () => {
    const { value, report } = on.event(event)
    expect(value).toEqual({
      message: 'm',
      context: {
        user: { ip_address: '[Filtered]', email: 'a@b.test' },
        request: {
          headers: { 'X-Forwarded-For': '[Filtered]', 'x-real-ip': '[Filtered]', Accept: '*/*' },
          env: { REMOTE_ADDR: '[Filtered]' },
        },
        otel: {
          'client.address': '[Filtered]',
          'network.peer.address': '[Filtered]',
          'net.peer.ip': '',
        },
      },
    })
    expect('user_id' in value).toBe(false)
    expect('user_id' in value.context).toBe(false)
    expect(report).toEqual({ filtered: 8, rules: { ip_address: 8 } })
  })

  it('drops a user_id of {{auto}} too', () => {
    const { value, report } = on.event({ user_id: '{{auto}}' })
    expect(value).toEqual({})
    expect(report.rules).toEqual({ ip_address: 1 })
  })

  it.each([['alice'], [42], ['u-203.0.113.7']])('keeps the user_id %j', (userId) => {
    const input = { user_id: userId, context: { user_id: userId } }
    expect(on.event(input).value).toBe(input)
  })

  it('keeps a user_id deeper down: it is an identifier there', () => {
    const input = { context: { user: { user_id: '203.0.113.7' } } }
    expect(on.event(input).value).toBe(input)
  })

  it('does nothing when off', () => {
    const result = off.event(event)
    expect(result.value).toBe(event)
    expect(result.report).toEqual({ filtered: 0, rules: {} })
  })
})
