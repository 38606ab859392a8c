// The lexical layer of the search syntax (docs/issues.md#search-syntax): a query is a list of
// tokens separated by white space, each a `key:value` term or free text, either one negated by a
// leading `!`. Values and free text may be double-quoted ("like this", with \" and \\ escapes),
// and a value may be a bracketed list (`level:[error,fatal]`) meaning any of its items.

/** The longest query, in characters. */
export const MAX_SEARCH_LENGTH = 1_024
/** The most tokens in one query. */
export const MAX_SEARCH_TOKENS = 32
/** The most items in one bracketed list. */
export const MAX_SEARCH_LIST = 50

/** One token of a query. */
export interface SearchToken {
  /** The token as written, for messages. */
  readonly raw: string
  readonly negated: boolean
  /** `null` for free text. */
  readonly key: string | null
  /** The value's items: one, or several for a bracketed list. Free text has one. */
  readonly values: readonly string[]
}

/** A tokenised query, or the message naming what is wrong with it. */
export type TokenizeResult =
  | { readonly ok: true; readonly tokens: readonly SearchToken[] }
  | { readonly ok: false; readonly error: string }

const KEY = /^[A-Za-z_][A-Za-z0-9_.]*$/

/** Reads a double-quoted string starting at `text[start]` (the quote); `null` when unclosed. */
function quoted(text: string, start: number): { value: string; end: number } | null {
  let value = ''
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i]!
    if (c === '\\' && i + 1 < text.length) {
      value += text[++i]
    } else if (c === '"') {
      return { value, end: i + 1 }
    } else {
      value += c
    }
  }
  return null
}

/** Splits `[a, "b c", d]` into its items; `null` when an item is empty. */
function listItems(body: string): string[] | null {
  const items: string[] = []
  let i = 0
  while (i <= body.length) {
    while (body[i] === ' ') i++
    let item: string
    if (body[i] === '"') {
      const q = quoted(body, i)
      if (!q) return null
      item = q.value
      i = q.end
      while (body[i] === ' ') i++
    } else {
      const comma = body.indexOf(',', i)
      const end = comma === -1 ? body.length : comma
      item = body.slice(i, end).trim()
      i = end
    }
    if (item === '') return null
    items.push(item)
    if (i >= body.length) break
    if (body[i] !== ',') return null
    i++
  }
  return items
}

/**
 * Splits a query into tokens. Fails, naming the token, on an unclosed quote or list, an empty
 * list item, or a query past the length or token limits. An empty value (`level:`) is a token
 * with one empty value: whether the key exists is the parser's to say first.
 */
export function tokenizeSearch(text: string): TokenizeResult {
  if (text.length > MAX_SEARCH_LENGTH) {
    return { ok: false, error: `is longer than ${MAX_SEARCH_LENGTH} characters` }
  }
  if (text.includes('\u0000')) return { ok: false, error: 'must not contain a NUL character' }
  const tokens: SearchToken[] = []
  let i = 0
  while (i < text.length) {
    if (/\s/.test(text[i]!)) {
      i++
      continue
    }
    const start = i
    const negated = text[i] === '!'
    if (negated) i++
    if (text[i] === '"') {
      const q = quoted(text, i)
      if (!q) return { ok: false, error: `has an unclosed quote: ${text.slice(start)}` }
      i = q.end
      if (q.value.trim() !== '') {
        tokens.push({ raw: text.slice(start, i), negated, key: null, values: [q.value] })
      }
      continue
    }
    // A bare word, or key:value whose value may be quoted or a list.
    let j = i
    while (j < text.length && !/[\s:"]/.test(text[j]!)) j++
    const word = text.slice(i, j)
    if (text[j] === ':' && KEY.test(word)) {
      let k = j + 1
      let values: string[]
      if (text[k] === '"') {
        const q = quoted(text, k)
        if (!q) return { ok: false, error: `has an unclosed quote: ${text.slice(start)}` }
        values = [q.value]
        k = q.end
      } else if (text[k] === '[') {
        const close = text.indexOf(']', k)
        if (close === -1) return { ok: false, error: `has an unclosed list: ${text.slice(start)}` }
        const items = listItems(text.slice(k + 1, close))
        if (!items)
          return { ok: false, error: `has an empty item in ${text.slice(start, close + 1)}` }
        if (items.length > MAX_SEARCH_LIST) {
          return { ok: false, error: `lists more than ${MAX_SEARCH_LIST} values in ${word}:[…]` }
        }
        values = items
        k = close + 1
      } else {
        let end = k
        while (end < text.length && !/\s/.test(text[end]!)) end++
        values = [text.slice(k, end)]
        k = end
      }
      tokens.push({ raw: text.slice(start, k), negated, key: word, values })
      i = k
    } else {
      while (j < text.length && !/\s/.test(text[j]!)) j++
      const raw = text.slice(start, j)
      const value = text.slice(i, j)
      if (value !== '') tokens.push({ raw, negated, key: null, values: [value] })
      i = j
    }
    if (tokens.length > MAX_SEARCH_TOKENS) {
      return { ok: false, error: `has more than ${MAX_SEARCH_TOKENS} terms` }
    }
  }
  return { ok: true, tokens }
}
