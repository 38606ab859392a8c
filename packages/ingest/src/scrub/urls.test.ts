import { describe, expect, it } from 'vitest'
import { createKeyClassifier } from './keys'
import { DEFAULT_SCRUB_SETTINGS } from './settings'
import { createTally } from './tally'
import { scrubQueryString, scrubUrls } from './urls'

const runOf = (scrubIpAddresses = false) => ({
  classify: createKeyClassifier({ ...DEFAULT_SCRUB_SETTINGS, scrubIpAddresses }),
  tally: createTally(),
})
const apply = (scrub: typeof scrubUrls, text: string, scrubIp = false) => {
  const run = runOf(scrubIp)
  return { text: scrub(text, run), report: run.tally.report() }
}

describe('url_password', () => {
  it.each([
    ['postgres://app:s3cr3t@db:5432/x', 'postgres://app:[Filtered]@db:5432/x'],
    ['redis://:pw@cache:6379', 'redis://:[Filtered]@cache:6379'],
    ['amqp://u:p@ss@mq/vhost', 'amqp://u:[Filtered]@mq/vhost'],
    [
      'connect mysql://root:hunter2@10.0.0.5/db failed',
      'connect mysql://root:[Filtered]@10.0.0.5/db failed',
    ],
    [
      'HTTPS://a:b@x.test https://c:d@y.test',
      'HTTPS://a:[Filtered]@x.test https://c:[Filtered]@y.test',
    ],
  ])('%s → %s', (text, expected) => {
    const result = apply(scrubUrls, text)
    expect(result.text).toBe(expected)
    expect(result.report.rules).toEqual({ url_password: expected.split('[Filtered]').length - 1 })
  })

  it.each([
    ['no password', 'https://user@host/x'],
    ['an empty password', 'https://user:@host/x'],
    ['a port, then an @ in the path', 'http://host:8080/a@b'],
    ['the marker', 'postgres://app:[Filtered]@db/x'],
    ['a mail address after a URL', 'see https://x.test/a and mail a:b c@d'],
  ])('keeps %s', (_, text) => {
    const result = apply(scrubUrls, text)
    expect(result.text).toBe(text)
    expect(result.report.filtered).toBe(0)
  })
})

describe('sensitive query parameters of URLs', () => {
  it.each([
    ['https://x/cb?token=abc&page=2', 'https://x/cb?token=[Filtered]&page=2'],
    ['https://x/?page=2&access_token=abc#top', 'https://x/?page=2&access_token=[Filtered]#top'],
    ['https://x/?api%5Fkey=z', 'https://x/?api%5Fkey=[Filtered]'],
    [
      'https://x/?user%5Bpassword%5D=p&user%5Bname%5D=n',
      'https://x/?user%5Bpassword%5D=[Filtered]&user%5Bname%5D=n',
    ],
    ['https://x/?client+secret=s', 'https://x/?client+secret=[Filtered]'],
    ['{"u":"https://x/?token=abc"}', '{"u":"https://x/?token=[Filtered]"}'],
    ['GET https://x/?password=1 200', 'GET https://x/?password=[Filtered] 200'],
  ])('%s → %s', (text, expected) => {
    const result = apply(scrubUrls, text)
    expect(result.text).toBe(expected)
    expect(result.report.rules).toEqual({ sensitive_key: 1 })
  })

  it.each([
    ['identifier parameters', 'https://x/?session_id=abc&trace_id=def'],
    ['empty values', 'https://x/?token=&page=2'],
    ['the marker', 'https://x/?token=[Filtered]'],
    ['a malformed escape', 'https://x/?%E0%A4%A=1&page=2'],
    ['a question mark outside any URL', 'why? token=abc'],
  ])('keeps %s', (_, text) => {
    expect(apply(scrubUrls, text)).toEqual({ text, report: { filtered: 0, rules: {} } })
  })

  it('IP parameters only when scrubIpAddresses is on', () => {
    const text = 'https://x/?client_ip=203.0.113.7'
    expect(apply(scrubUrls, text).text).toBe(text)
    expect(apply(scrubUrls, text, true)).toEqual({
      text: 'https://x/?client_ip=[Filtered]',
      report: { filtered: 1, rules: { ip_address: 1 } },
    })
  })
})

describe('query_string values', () => {
  it.each([
    ['token=abc&page=2', 'token=[Filtered]&page=2'],
    ['?password=x', '?password=[Filtered]'],
    ['a=1&API_KEY=k&b', 'a=1&API_KEY=[Filtered]&b'],
    ['[["token","abc"],["page","2"]]', '[["token","[Filtered]"],["page","2"]]'],
    ['{"token":"abc","page":"2"}', '{"token":"[Filtered]","page":"2"}'],
  ])('%s → %s', (text, expected) => {
    const result = apply(scrubQueryString, text)
    expect(result.text).toBe(expected)
    expect(result.report.rules).toEqual({ sensitive_key: 1 })
  })

  it.each(['page=2', 'just text', '[oops', '[["token",""]]', '{"page":"x"}', '"token"', ''])(
    'keeps %j',
    (text) => {
      expect(apply(scrubQueryString, text).text).toBe(text)
    },
  )
})
