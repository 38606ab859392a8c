import { MAX_LINE_CHARS } from '@tis/schema'

/** One line of an excerpt. */
export interface ExcerptLine {
  /** 1-based line number in the file. */
  readonly number: number
  readonly text: string
}

// The limits are part of the answers' schemas (`@tis/schema`: `SourceSettings`, `FrameSourceExcerpt`).
export { DEFAULT_CONTEXT_LINES, MAX_CONTEXT_LINES, MAX_LINE_CHARS } from '@tis/schema'

/**
 * Lines `line - context` to `line + context` of `content` (clamped to the file), each cut to
 * {@link MAX_LINE_CHARS}; `null` when the file has no line `line`. `\r\n`, `\r` and `\n` all end
 * a line; a final newline starts no extra line.
 */
export function cutExcerpt(content: string, line: number, context: number): ExcerptLine[] | null {
  const lines = content.split(/\r\n|\r|\n/)
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
  if (!Number.isInteger(line) || line < 1 || line > lines.length) return null
  const first = Math.max(1, line - context)
  const last = Math.min(lines.length, line + context)
  const out: ExcerptLine[] = []
  for (let n = first; n <= last; n++) {
    out.push({ number: n, text: lines[n - 1]!.slice(0, MAX_LINE_CHARS) })
  }
  return out
}
