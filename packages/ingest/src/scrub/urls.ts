// Secrets inside URLs and query strings: the password of `scheme://user:password@host` and the
// values of query parameters whose names the key rules filter.
import type { KeyClassifier } from './keys'
import { replaceMatches } from './replace'
import { FILTERED, type ScrubRule } from './settings'
import type { Tally } from './tally'

/** What the URL rules need: the key rules (for parameter names) and the tally. */
export interface UrlRun {
  readonly classify: KeyClassifier
  readonly tally: Tally
}

// The password runs to the authority's last `@`, as URL parsers read it (`p@ss` stays whole).
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/?#]*:)([^\s/?#]*)@/gi
// The query runs to a fragment, whitespace or a quote/bracket that ends a URL inside prose or JSON.
const URL_QUERY = /\b[a-z][a-z0-9+.-]*:\/\/[^\s?#"'<>`]*\?([^\s#"'<>`]+)/gi

/** `text` with every URL's password and sensitive query values replaced. */
export function scrubUrls(text: string, run: UrlRun): string {
  let out = text
  if (out.includes('@')) {
    out = replaceMatches(out, USERINFO, ([, head, password]) => {
      if (password === '' || password === FILTERED) return undefined
      run.tally.add('url_password')
      return `${head}${FILTERED}@`
    })
  }
  if (out.includes('?')) {
    out = replaceMatches(out, URL_QUERY, ([whole, query = '']) => {
      const scrubbed = scrubQuery(query, run)
      return scrubbed === query ? undefined : whole.slice(0, whole.length - query.length) + scrubbed
    })
  }
  return out
}

/** The rule a query parameter's name triggers, if any. */
function ruleOfParameter(rawName: string, run: UrlRun): ScrubRule | undefined {
  let name = rawName
  if (name.includes('%') || name.includes('+')) {
    try {
      name = decodeURIComponent(name.replaceAll('+', ' '))
    } catch {
      // A malformed escape: the name is matched as sent.
    }
  }
  const { verdict } = run.classify(name)
  if (verdict === 'sensitive') return 'sensitive_key'
  return verdict === 'ip' ? 'ip_address' : undefined
}

const isFilteredAt = (text: string, start: number, end: number) =>
  end - start === FILTERED.length && text.startsWith(FILTERED, start)

/** `a=b&c=d` (no leading `?`) with the values of sensitive parameters replaced. */
export function scrubQuery(query: string, run: UrlRun): string {
  // Scanned in place: most queries have nothing to filter and then cost no allocation but names.
  let out = ''
  let copied = 0
  let eq = -1
  for (let start = 0; start < query.length; ) {
    let end = query.indexOf('&', start)
    if (end < 0) end = query.length
    if (eq < start) eq = query.indexOf('=', start)
    if (eq < 0) break
    if (eq > start && eq < end - 1 && !isFilteredAt(query, eq + 1, end)) {
      const rule = ruleOfParameter(query.slice(start, eq), run)
      if (rule !== undefined) {
        run.tally.add(rule)
        out += `${query.slice(copied, eq + 1)}${FILTERED}`
        copied = end
      }
    }
    start = end + 1
  }
  return copied === 0 ? query : out + query.slice(copied)
}

/**
 * A `query_string` value: `a=b&c=d` (a leading `?` kept), or the JSON that Sentry's normalised
 * forms arrive as once mapped: a list of pairs `[["a","b"],…]` or an object `{"a":"b"}`.
 */
export function scrubQueryString(value: string, run: UrlRun): string {
  if (value.startsWith('[') || value.startsWith('{')) return scrubQueryJson(value, run)
  const lead = value.startsWith('?') ? 1 : 0
  const query = lead === 0 ? value : value.slice(lead)
  const scrubbed = scrubQuery(query, run)
  return scrubbed === query ? value : value.slice(0, lead) + scrubbed
}

function scrubQueryJson(value: string, run: UrlRun): string {
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    return value
  }
  if (typeof parsed !== 'object' || parsed === null) return value
  // Parsed here, so this copy is the scrubber's own to change.
  const entries: unknown[][] = Array.isArray(parsed)
    ? parsed.filter((pair): pair is unknown[] => Array.isArray(pair))
    : Object.entries(parsed)
  let changed = false
  for (const entry of entries) {
    const [name, current] = entry
    if (typeof name !== 'string') continue
    if (current === null || current === undefined || current === '' || current === FILTERED) {
      continue
    }
    const rule = ruleOfParameter(name, run)
    if (rule === undefined) continue
    run.tally.add(rule)
    entry[1] = FILTERED
    changed = true
  }
  if (!changed) return value
  return JSON.stringify(Array.isArray(parsed) ? parsed : Object.fromEntries(entries))
}
