// Key names as lower-case words, the form every key rule compares.

const LOWER_THEN_UPPER = /([\p{Ll}\p{N}])(\p{Lu})/gu
const ACRONYM_THEN_WORD = /(\p{Lu})(\p{Lu}\p{Ll})/gu
const SEPARATORS = /[^\p{L}\p{N}]+/u

/**
 * The lower-case words of a key: split at camelCase boundaries (`dbPassword` → db, password;
 * `XApiKey` → x, api, key) and at every character that is neither a letter nor a digit (`_`, `-`,
 * `.`, spaces, but also `[`, `]`, `:` …, so form names such as `user[password]` split too).
 */
export function splitWords(key: string): string[] {
  const words = key
    .replace(LOWER_THEN_UPPER, '$1 $2')
    .replace(ACRONYM_THEN_WORD, '$1 $2')
    .toLowerCase()
    .split(SEPARATORS)
  return words.filter((w) => w.length > 0)
}

/**
 * Whether `name`'s words occur as a contiguous run of `words`, each word equal to the name's
 * word or to it plus a plural `s` (`cookies` matches `cookie`; `cookiejar` does not).
 */
export function containsRun(words: readonly string[], name: readonly string[]): boolean {
  if (name.length === 0) return false
  for (let i = 0; i + name.length <= words.length; i++) {
    let j = 0
    while (j < name.length && isWordOrPlural(words[i + j]!, name[j]!)) j++
    if (j === name.length) return true
  }
  return false
}

const isWordOrPlural = (word: string, name: string) =>
  word === name || (word.length === name.length + 1 && word.endsWith('s') && word.startsWith(name))
