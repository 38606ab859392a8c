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

/** Sources whose line starts are kept: those of the maps in use (their texts the map cache holds). */
const KEPT_SOURCES = 256
const starts = new Map<string, Uint32Array>()

/**
 * Where each line of `source` starts. Splitting a whole source at every frame cost more than
 * the rest of a frame's resolution (it is the same few sources round after round), so the
 * offsets are computed once per source and kept for the last {@link KEPT_SOURCES} sources.
 */
function lineStarts(source: string): Uint32Array {
  let found = starts.get(source)
  if (found !== undefined) return found
  const out: number[] = [0]
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i)
    if (c === 10 || (c === 13 && source.charCodeAt(i + 1) !== 10)) out.push(i + 1)
  }
  found = Uint32Array.from(out)
  if (starts.size >= KEPT_SOURCES) starts.clear()
  starts.set(source, found)
  return found
}

/** Line `index` (0-based) of `source` without its line break, `undefined` past the end. */
function lineOf(source: string, at: Uint32Array, index: number): string | undefined {
  if (index < 0 || index >= at.length) return undefined
  const line = source.slice(at[index], index + 1 < at.length ? at[index + 1] : source.length)
  return line.replace(/\r?\n$|\r$/, '')
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
  const offsets = lineStarts(source)
  const at = line - 1
  const current = lineOf(source, offsets, at)
  if (current === undefined) return undefined
  const range = (from: number, to: number) => {
    const out: string[] = []
    for (let i = Math.max(0, from); i < Math.min(to, offsets.length); i++) {
      out.push(trimLine(lineOf(source, offsets, i) as string, column))
    }
    return out
  }
  return {
    pre_context: range(at - CONTEXT_LINES, at),
    context_line: trimLine(current, column),
    post_context: range(at + 1, at + 1 + CONTEXT_LINES),
  }
}
