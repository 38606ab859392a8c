// The value rules on one string or number. Most strings hold none of the patterns, so one cheap
// prefilter decides whether the precise rules run at all.
import {
  BEARER_HINT,
  isCardNumber,
  scrubBearerTokens,
  scrubCards,
  scrubPrivateKeys,
} from './patterns'
import { FILTERED } from './settings'
import { scrubUrls, type UrlRun } from './urls'

/** The shortest string any value rule can match (`Bearer x`; `a://b:c@d` is longer). */
const MIN_SUSPECT_LENGTH = 8
/** 13 digits with single separators: what a card number needs. */
const DIGIT_RUN = /\d(?:[ -]?\d){12}/
/** Something that may start a match: a PEM header, `bearer `, a URL, or 13 digits. */
const SUSPECT = /-----BEGIN|bearer\s|:\/\/|\d(?:[ -]?\d){12}/i

/** `text` with card numbers, private keys, bearer tokens and URL secrets replaced. */
export function scrubString(text: string, run: UrlRun): string {
  if (text.length < MIN_SUSPECT_LENGTH || !SUSPECT.test(text)) return text
  // Private keys first: their base64 body must not be read as tokens or card numbers.
  let out = scrubPrivateKeys(text, run.tally)
  if (BEARER_HINT.test(out)) out = scrubBearerTokens(out, run.tally)
  if (out.includes('://')) out = scrubUrls(out, run)
  return DIGIT_RUN.test(out) ? scrubCards(out, run.tally) : out
}

/** A JSON number that is a card number becomes the marker; any other number is kept. */
export function scrubNumber(n: number, run: UrlRun): number | string {
  if (!isCardNumber(n)) return n
  run.tally.add('credit_card')
  return FILTERED
}
