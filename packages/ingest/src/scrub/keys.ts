// The verdict of the key rules on one key name, memoised per scrubber: keys repeat heavily
// across events, so each distinct key is split into words once.
import { IDENTIFIERS, IP_KEYS, QUERY_KEYS, SENSITIVE_NAMES } from './names'
import type { ScrubSettings } from './settings'
import { containsRun, splitWords } from './words'

/**
 * What the key rules make of a key, strongest first: `safe` (a `safeFields` entry: value kept,
 * not scanned), `identifier` (kept, not scanned), `ip` (filtered; only with `scrubIpAddresses`),
 * `sensitive` (filtered), `query` (its string is a query string), `plain` (walked and scanned).
 */
export type KeyVerdict = 'safe' | 'identifier' | 'ip' | 'sensitive' | 'query' | 'plain'

/** A key's verdict and its words joined by `_` (how documented fields are recognised). */
export interface KeyInfo {
  readonly verdict: KeyVerdict
  readonly snake: string
}

/** Classifies key names; the same key always gets the same (memoised) answer. */
export type KeyClassifier = (key: string) => KeyInfo

/** The most keys a classifier remembers; it starts over when full. */
export const KEY_MEMO_LIMIT = 4_096

/** A memoising classifier for one set of settings. */
export function createKeyClassifier(settings: ScrubSettings): KeyClassifier {
  // An entry without words (`''`, `'__'`) matches nothing: `containsRun` rejects empty names.
  const sensitive = [...SENSITIVE_NAMES, ...settings.extraFields].map(splitWords)
  const safe = new Set(settings.safeFields.map((f) => f.toLowerCase()))
  const scrubIp = settings.scrubIpAddresses

  const verdictOf = (key: string, words: readonly string[], snake: string): KeyVerdict => {
    if (safe.size > 0 && safe.has(key.toLowerCase())) return 'safe'
    if (IDENTIFIERS.has(snake)) return 'identifier'
    if (scrubIp && IP_KEYS.has(snake)) return 'ip'
    if (sensitive.some((name) => containsRun(words, name))) return 'sensitive'
    return QUERY_KEYS.has(snake) ? 'query' : 'plain'
  }

  const memo = new Map<string, KeyInfo>()
  return (key) => {
    let info = memo.get(key)
    if (info === undefined) {
      const words = splitWords(key)
      const snake = words.join('_')
      info = { verdict: verdictOf(key, words, snake), snake }
      if (memo.size >= KEY_MEMO_LIMIT) memo.clear()
      memo.set(key, info)
    }
    return info
  }
}
