// The source lines around a resolved position, as Sentry shows them (symbolicator's
// `source_context.rs`): five before, the line, five after; long lines (minified code, data)
// cut around the column so one frame cannot carry a megabyte of text.

/** Lines of context on each side of a resolved line. */
export const CONTEXT_LINES = 5

const MAX_LINE = 150
const KEPT = 140

/** A line of at most 150 characters as is, else about 140 around `column` with `{snip}` marks. */
export function trimLine(line: string, column: number): string {
  if (line.length <= MAX_LINE) return line
  const end = Math.min(line.length, Math.max(column + KEPT / 2, KEPT))
  const start = Math.max(0, end - KEPT)
  return `${start > 0 ? '{snip} ' : ''}${line.slice(start, end)}${end < line.length ? ' {snip}' : ''}`
}

/** The context fields of a frame at `line` (1-based) and `column` (0-based) of `source`. */
export function contextOf(
  source: string,
  line: number,
  column: number,
):
  | {
      readonly pre_context: string[]
      readonly context_line: string
      readonly post_context: string[]
    }
  | undefined {
  const lines = source.split(/\r\n|\r|\n/)
  const at = line - 1
  const current = lines[at]
  if (current === undefined) return undefined
  const cut = (l: string) => trimLine(l, column)
  return {
    pre_context: lines.slice(Math.max(0, at - CONTEXT_LINES), at).map(cut),
    context_line: cut(current),
    post_context: lines.slice(at + 1, at + 1 + CONTEXT_LINES).map(cut),
  }
}
