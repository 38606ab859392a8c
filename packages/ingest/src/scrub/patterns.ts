// The value patterns that need no key: card numbers, PEM private keys, bearer tokens and IP
// literals. Each replacer returns its input itself when nothing matched.
import { replaceMatches } from './replace'
import { FILTERED } from './settings'
import type { Tally } from './tally'

/**
 * 13–19 digits, single spaces or dashes allowed between them, not touching a letter or digit
 * (nor the fraction of a decimal). The first digit is 2–9: no card scheme in use issues numbers
 * starting with 0 or 1, while epoch-millisecond timestamps (13 digits, `1…` until 2033) are the
 * commonest such numbers in telemetry and would otherwise pass the Luhn check one time in ten.
 */
const CARD = /(?<![\p{L}\p{N}]|\d[.,])[2-9](?:[ -]?\d){12,18}(?![\p{L}\p{N}])/gu

/** Whether a string of digits (separators ignored) passes the Luhn check. */
export function passesLuhn(digits: string): boolean {
  let sum = 0
  let double = false
  for (let i = digits.length - 1; i >= 0; i--) {
    const code = digits.charCodeAt(i) - 48
    if (code < 0 || code > 9) continue
    const d = double ? code * 2 : code
    sum += d > 9 ? d - 9 : d
    double = !double
  }
  return sum % 10 === 0
}

/** Card numbers in `text` replaced by the marker. */
export function scrubCards(text: string, tally: Tally): string {
  return replaceMatches(text, CARD, ([run = '']) => {
    if (!passesLuhn(run)) return undefined
    tally.add('credit_card')
    return FILTERED
  })
}

/** Whether a JSON number is a Luhn-valid card number (an integer of 13–19 digits from 2…). */
export function isCardNumber(n: number): boolean {
  // Up to 1e19 the decimal form has no exponent. Beyond 2^53 (some 19-digit cards) JSON.parse
  // has already rounded the digits; the check then runs on the digits as held.
  return n >= 2e12 && n < 1e19 && Number.isInteger(n) && passesLuhn(String(n))
}

const PRIVATE_KEY =
  /-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----|$)/g

/** PEM private-key blocks (to the end of the text when the END line is missing) replaced. */
export function scrubPrivateKeys(text: string, tally: Tally): string {
  if (!text.includes('-----BEGIN')) return text
  return replaceMatches(text, PRIVATE_KEY, () => {
    tally.add('private_key')
    return FILTERED
  })
}

/** Cheap test for {@link scrubBearerTokens}. */
export const BEARER_HINT = /bearer\s/i
// At least 8 characters: a credential, not prose ("the bearer of bad news").
const BEARER = /\bbearer\s+[A-Za-z0-9._~+/=-]{8,}/gi

/** `Bearer <token>` replaced as a whole. */
export function scrubBearerTokens(text: string, tally: Tally): string {
  return replaceMatches(text, BEARER, () => {
    tally.add('bearer_token')
    return FILTERED
  })
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/
const IPV6 =
  /^\[?([0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,8})(?::(\d{1,3}(?:\.\d{1,3}){3}))?(?:%[\w.-]+)?\]?$/i

/** Whether `value` is an IPv4 or IPv6 literal (IPv6 with an optional zone and brackets). */
export function isIpLiteral(value: unknown): boolean {
  if (typeof value !== 'string' || value.length < 2 || value.length > 64) return false
  if (IPV4.test(value)) return true
  const v6 = IPV6.exec(value)
  if (v6 === null) return false
  const [, hex = '', v4] = v6
  if (v4 !== undefined && !IPV4.test(v4)) return false
  const groups = hex.split(':').filter((g) => g !== '').length + (v4 === undefined ? 0 : 2)
  const compressions = hex.split('::').length - 1
  if (compressions === 0) return groups === 8 && !/^:|::|:$/.test(hex)
  return compressions === 1 && groups <= 7 && !/:::|^:[^:]|[^:]:$/.test(hex)
}
