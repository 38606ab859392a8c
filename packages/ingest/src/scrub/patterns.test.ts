import { describe, expect, it } from 'vitest'
import {
  isCardNumber,
  isIpLiteral,
  passesLuhn,
  scrubBearerTokens,
  scrubCards,
  scrubPrivateKeys,
} from './patterns'
import { createTally } from './tally'

/** The text after one replacer, and its report. */
const apply = (replace: typeof scrubCards, text: string) => {
  const tally = createTally()
  return { text: replace(text, tally), report: tally.report() }
}

describe('passesLuhn', () => {
  it.each([
    ['4111111111111111', true],
    ['4111 1111 1111 1111', true],
    ['4111111111111112', false],
    ['4222222222222', true],
    ['4111111111111', false],
  ])('%s: %s', (digits, expected) => {
    expect(passesLuhn(digits)).toBe(expected)
  })
})

describe('credit_card in strings', () => {
  it.each([
    ['card 4111 1111 1111 1111 declined', 'card [Filtered] declined'],
    ['4111-1111-1111-1111', '[Filtered]'],
    ['order 4111111111111111 x', 'order [Filtered] x'],
    ['amex 378282246310005.', 'amex [Filtered].'],
    ['mc 5555555555554444, discover 6011000990139424', 'mc [Filtered], discover [Filtered]'],
    ['13 digits 4222222222222', '13 digits [Filtered]'],
    ['19 digits 4000000000000000006', '19 digits [Filtered]'],
    ['card_4111111111111111', 'card_[Filtered]'],
    ['4111 1111 1111 1111 2024', '[Filtered] 2024'],
  ])('%j → %j', (text, expected) => {
    const result = apply(scrubCards, text)
    expect(result.text).toBe(expected)
    expect(result.report.rules.credit_card).toBe(expected.split('[Filtered]').length - 1)
  })

  it.each([
    ['an order number failing Luhn', 'order 4111111111111112 x'],
    ['letters touching the run', 'id4111111111111111'],
    ['letters after the run', '4111111111111111x'],
    ['a trace id of 32 hex characters', '4bf92f3577b34da6a3ce929d0e0e4736'],
    ['a run of 32 digits', '41111111111111111111111111111111'],
    ['a run of 20 digits', '41111111111111111110'],
    ['12 digits', '411111111116'],
    // Luhn-valid, but 13 digits from `1` are epoch milliseconds far more often than cards.
    ['an epoch-millisecond timestamp', 'at 1712345678907'],
    ['the fraction of a decimal', '0.4111111111111111'],
    ['double separators', '4111  1111 1111 1111'],
    ['the marker itself', 'card [Filtered]'],
  ])('keeps %s', (_, text) => {
    const result = apply(scrubCards, text)
    expect(result.text).toBe(text)
    expect(result.report.filtered).toBe(0)
  })
})

describe('credit_card in JSON numbers', () => {
  it.each([
    [4222222222222, true],
    [4111111111111111, true],
    [378282246310005, true],
    [4111111111111112, false],
    [4111111111111, false],
    [1712345678907, false],
    [42, false],
    [4222222222222.5, false],
    [-4222222222222, false],
  ])('%d: %s', (n, expected) => {
    expect(isCardNumber(n)).toBe(expected)
  })
})

const BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7'

describe('private_key', () => {
  it.each([
    ['PRIVATE KEY'],
    ['RSA PRIVATE KEY'],
    ['EC PRIVATE KEY'],
    ['OPENSSH PRIVATE KEY'],
    ['ENCRYPTED PRIVATE KEY'],
    ['PGP PRIVATE KEY BLOCK'],
  ])('a %s block becomes the marker', (label) => {
    const pem = `-----BEGIN ${label}-----\n${BODY}\n-----END ${label}-----`
    const result = apply(scrubPrivateKeys, `key: ${pem}\nnext line`)
    expect(result.text).toBe('key: [Filtered]\nnext line')
    expect(result.report).toEqual({ filtered: 1, rules: { private_key: 1 } })
  })

  it('without its END line, to the end of the text', () => {
    const result = apply(scrubPrivateKeys, `a\n-----BEGIN RSA PRIVATE KEY-----\n${BODY}`)
    expect(result.text).toBe('a\n[Filtered]')
  })

  it('counts each block', () => {
    const pem = `-----BEGIN PRIVATE KEY-----\n${BODY}\n-----END PRIVATE KEY-----`
    expect(apply(scrubPrivateKeys, `${pem} and ${pem}`).report.rules.private_key).toBe(2)
  })

  it('keeps certificates and public keys', () => {
    const text = `-----BEGIN CERTIFICATE-----\n${BODY}\n-----END CERTIFICATE-----\n-----BEGIN PUBLIC KEY-----\n${BODY}`
    expect(apply(scrubPrivateKeys, text).text).toBe(text)
  })
})

describe('bearer_token', () => {
  it.each([
    ['Authorization: Bearer abc.def-ghi_jkl~+/=', 'Authorization: [Filtered]'],
    ['bearer  eyJhbGciOi.eyJzdWIi.SflKxw rest', '[Filtered] rest'],
    ['BEARER\tx1y2z3w4', '[Filtered]'],
    ['a Bearer x1y2z3w4, another Bearer 5a6b7c8d9e', 'a [Filtered], another [Filtered]'],
  ])('%j → %j', (text, expected) => {
    const result = apply(scrubBearerTokens, text)
    expect(result.text).toBe(expected)
    expect(result.report.rules.bearer_token).toBe(expected.split('[Filtered]').length - 1)
  })

  it.each([
    'Bearer [Filtered]',
    'Bearer',
    'unbearer x1y2z3w4',
    'Bearer\n',
    'the bearer of bad news',
    'Bearer short',
  ])('keeps %j', (text) => {
    expect(apply(scrubBearerTokens, text).report.filtered).toBe(0)
  })
})

describe('isIpLiteral', () => {
  it.each([
    '10.0.0.1',
    '255.255.255.255',
    '0.0.0.0',
    '::1',
    '::',
    '2001:db8::1',
    '[2001:db8::1]',
    'fe80::1%eth0',
    '::ffff:192.168.0.1',
    '1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7::',
  ])('%s is one', (value) => {
    expect(isIpLiteral(value)).toBe(true)
  })

  it.each([
    '256.0.0.1',
    '1.2.3',
    '01.2.3.4',
    'alice',
    '12:30:45',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4::5:6:7:8',
    ':::1',
    'dead:beef',
    '',
    42,
    null,
  ])('%j is not', (value) => {
    expect(isIpLiteral(value)).toBe(false)
  })
})
