import { describe, expect, it } from 'vitest'
import { createKeyClassifier, KEY_MEMO_LIMIT } from './keys'
import { DEFAULT_SCRUB_SETTINGS, type ScrubSettings } from './settings'

const verdicts = (settings: Partial<ScrubSettings> = {}) => {
  const classify = createKeyClassifier({ ...DEFAULT_SCRUB_SETTINGS, ...settings })
  return (key: string) => classify(key).verdict
}
const verdict = verdicts()

// The built-in names, written out here so that dropping one from the list fails a test.
const DEFAULT_NAMES: Array<readonly string[]> = [
  ['password'],
  ['passwd'],
  ['pwd'],
  ['secret'],
  ['api', 'key'],
  ['apikey'],
  ['access', 'token'],
  ['auth'],
  ['authorization'],
  ['credentials'],
  ['private', 'key'],
  ['token'],
  ['cookie'],
  ['set', 'cookie'],
  ['session'],
]
const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1)
const formsOf = (words: readonly string[]) => [
  words.join('_'),
  words.join('-'),
  words.join('.'),
  words[0] + words.slice(1).map(cap).join(''),
  words.join('_').toUpperCase(),
  words.map(cap).join('-'),
  `${words.join('_')}s`,
  `db_${words.join('_')}`,
  `x-${words.join('-')}`,
  `my${words.map(cap).join('')}`,
  `${words.join('_')}_value`,
  `${words[0]}${words.slice(1).map(cap).join('')}Hash`,
]

describe('the sensitive-key rule', () => {
  it.each(DEFAULT_NAMES.flatMap((words) => formsOf(words).map((key) => [key, words.join('_')])))(
    '%s matches %s',
    (key) => {
      expect(verdict(key)).toBe('sensitive')
    },
  )

  it.each([
    'db_password',
    'x_token',
    'refresh_token',
    'authToken',
    'stripe_api_key',
    'X-Api-Key',
    'XApiKey',
    'Proxy-Authorization',
    'HTTP_AUTHORIZATION',
    'MYSQL_PWD',
    'cookies',
    'Set-Cookie',
    'client_secret',
    'sessionToken',
    'passwords',
    'tokens',
    'secrets',
    'user[password]',
    // `cookie_consent` holds the word `cookie`: filtered, as every key naming a cookie is.
    'cookie_consent',
  ])('%s is sensitive', (key) => {
    expect(verdict(key)).toBe('sensitive')
  })

  it.each([
    'tokenizer',
    'author',
    'authority',
    'secretary',
    'passwordless',
    'cookiejar',
    'setcookie',
    'key',
    'private',
    'api',
    'pass',
    'accept',
    'user_agent',
    'credential',
  ])('%s is not sensitive', (key) => {
    expect(verdict(key)).toBe('plain')
  })
})

describe('identifier names', () => {
  it.each([
    'session_id',
    'sessionId',
    'SESSION_ID',
    'session-id',
    'request_id',
    'requestId',
    'trace_id',
    'traceId',
    'user_id',
    'userId',
    'span_id',
    'spanId',
    'parent_span_id',
    'parentSpanId',
    'event_id',
    'eventId',
    'fingerprint',
    'check_in_slug',
    'checkInSlug',
    'monitor_slug',
    'commit_sha',
    'commitSha',
    'release',
    'environment',
  ])('%s is an identifier, even when extraFields names it', (key) => {
    expect(verdict(key)).toBe('identifier')
    expect(verdicts({ extraFields: [key, 'session', 'trace'] })(key)).toBe('identifier')
  })

  it('only the exact word form is an identifier: x_session_id still names a session', () => {
    expect(verdict('x_session_id')).toBe('sensitive')
  })
})

describe('extraFields', () => {
  const extra = verdicts({ extraFields: ['ssn', 'customer-note', '', '__'] })

  it.each(['ssn', 'SSN', 'user_ssn', 'ssns', 'customerNote', 'customer_note', 'CUSTOMER-NOTE'])(
    '%s matches',
    (key) => {
      expect(extra(key)).toBe('sensitive')
    },
  )

  it.each(['customer', 'note', 'notes_customer', 'lesson'])('%s does not', (key) => {
    expect(extra(key)).toBe('plain')
  })

  it('an entry without words matches nothing', () => {
    expect(extra('anything')).toBe('plain')
  })
})

describe('safeFields', () => {
  const safe = verdicts({ safeFields: ['session', 'Order_Number'] })

  it('exempts the exact key, case-insensitively, over every other rule', () => {
    expect(safe('session')).toBe('safe')
    expect(safe('SESSION')).toBe('safe')
    expect(safe('order_number')).toBe('safe')
  })

  it('exempts nothing else', () => {
    expect(safe('sessions')).toBe('sensitive')
    expect(safe('user_session')).toBe('sensitive')
  })
})

describe('IP address keys', () => {
  const ip = verdicts({ scrubIpAddresses: true })
  it.each([
    'ip',
    'IP',
    'ip_address',
    'ipAddress',
    'remote_addr',
    'REMOTE_ADDR',
    'client_ip',
    'clientIP',
    'x-forwarded-for',
    'X-Forwarded-For',
    'x-real-ip',
    'forwarded',
    'cf-connecting-ip',
    'True-Client-IP',
    'client.address',
    'network.peer.address',
    'net.peer.ip',
    'http.client_ip',
  ])('%s holds an IP address when scrubIpAddresses is on', (key) => {
    expect(ip(key)).toBe('ip')
    expect(verdict(key)).toBe('plain')
  })

  it.each(['zip', 'ip_count', 'ship', 'client'])('%s does not', (key) => {
    expect(ip(key)).toBe('plain')
  })
})

describe('query-string keys', () => {
  it.each(['query_string', 'queryString', 'QUERY_STRING', 'query'])('%s', (key) => {
    expect(verdict(key)).toBe('query')
  })
})

describe('the memo', () => {
  it('answers a repeated key from memory and starts over when full', () => {
    const classify = createKeyClassifier(DEFAULT_SCRUB_SETTINGS)
    const first = classify('db_password')
    expect(classify('db_password')).toBe(first)
    for (let i = 0; i < KEY_MEMO_LIMIT; i++) classify(`key_${i}`)
    const again = classify('db_password')
    expect(again).not.toBe(first)
    expect(again).toEqual(first)
  })
})
