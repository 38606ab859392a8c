/** One parsed stack frame, as sent in `context.exception.frames`. */
export interface StackFrame {
  readonly function?: string
  readonly filename?: string
  readonly lineno?: number
  readonly colno?: number
}

// V8:  "    at fn (file:1:2)", "    at file:1:2", "    at async fn (file:1:2)"
const V8 = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?\s*$/
// Firefox and Safari: "fn@file:1:2", "@file:1:2"
const GECKO = /^\s*(.*?)@(.+?):(\d+):(\d+)\s*$/

const MAX_FRAMES = 50

/** Parses a V8, Firefox or Safari `Error.stack` into frames (innermost first); never throws. */
export function parseStack(stack: unknown): StackFrame[] {
  if (typeof stack !== 'string') return []
  const frames: StackFrame[] = []
  for (const line of stack.split('\n')) {
    if (frames.length >= MAX_FRAMES) break
    const match = V8.exec(line) ?? GECKO.exec(line)
    const fn = match?.[1]?.replace(/^async /, '')
    if (match) {
      frames.push({
        ...(fn && { function: fn }),
        filename: match[2]!,
        lineno: Number(match[3]),
        colno: Number(match[4]),
      })
    }
  }
  return frames
}
