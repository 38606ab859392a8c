/**
 * `text` with each match of the global `pattern` replaced by what `replace` returns for it
 * (`undefined` keeps the match). The input itself comes back when nothing was replaced. An
 * `exec` loop: several times cheaper than `String#replace` with a callback on short strings.
 */
export function replaceMatches(
  text: string,
  pattern: RegExp,
  replace: (match: RegExpExecArray) => string | undefined,
): string {
  let out = ''
  let copied = 0
  let changed = false
  pattern.lastIndex = 0
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const next = replace(match)
    if (next !== undefined) {
      out += text.slice(copied, match.index) + next
      copied = match.index + match[0].length
      changed = true
    }
    if (match[0].length === 0) pattern.lastIndex++
  }
  return changed ? out + text.slice(copied) : text
}
