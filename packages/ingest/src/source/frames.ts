/** One stack frame of an error event, whatever form it was sent in. */
export interface StackFrame {
  readonly function: string | null
  /** The file as the runtime named it: a path, a `file://` or `webpack://` URL, or an http URL. */
  readonly filename: string | null
  readonly lineno: number | null
  readonly colno: number | null
}

/** The most frames read from one event; the SDK sends at most 50. */
export const MAX_FRAMES = 50

// V8: "    at fn (file:1:2)", "    at file:1:2", "    at async fn (file:1:2)"
const V8 = /^\s*at (?:(.+?) \()?(.+?):(\d+)(?::(\d+))?\)?\s*$/
// Firefox and Safari: "fn@file:1:2", "@file:1:2"
const GECKO = /^\s*(.*?)@(.+?):(\d+):(\d+)\s*$/
// Python traceback: '  File "app/x.py", line 12, in handler'
const PYTHON = /^\s*File "(.+?)", line (\d+)(?:, in (.+?))?\s*$/
// Ruby and Python SDK backtraces: "app/models/user.rb:42:in `save'", "app/x.py:12:in handler", "x.rb:3"
const PATH_LINE = /^\s*(.+?):(\d+)(?::in [`'‘]?(.+?)[`'’]?)?\s*$/

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)
const positive = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : null
}

function frame(fn: string | undefined, file: string, line: string, col?: string): StackFrame {
  return {
    function: fn?.replace(/^async /, '') || null,
    filename: file,
    lineno: Number(line),
    colno: col === undefined ? null : Number(col),
  }
}

/**
 * Parses one line of a backtrace or stack: V8 (`at fn (file:1:2)`), Firefox/Safari
 * (`fn@file:1:2`), Python (`File "x.py", line 3, in fn`) or `path:line[:in method]` (Ruby,
 * Python SDKs). `null` for anything else (messages, Python source lines).
 */
export function parseFrameLine(line: string): StackFrame | null {
  let m = PYTHON.exec(line)
  if (m) return frame(m[3], m[1]!, m[2]!)
  m = V8.exec(line)
  if (m) return frame(m[1], m[2]!, m[3]!, m[4])
  m = GECKO.exec(line)
  if (m) return frame(m[1], m[2]!, m[3]!, m[4])
  m = PATH_LINE.exec(line)
  // "Error: boom" or "Traceback (most recent call last):" have no line number after a colon.
  if (m && !/\s/.test(m[1]!.trim())) return frame(m[3], m[1]!.trim(), m[2]!)
  return null
}

/** A frame object as SDKs send it: `filename`/`abs_path`/`file`/`path`, `lineno`/`line`, … */
function frameOfObject(o: Record<string, unknown>): StackFrame {
  return {
    function: text(o['function']) ?? text(o['method']) ?? text(o['name']),
    filename: text(o['filename']) ?? text(o['abs_path']) ?? text(o['file']) ?? text(o['path']),
    lineno: positive(o['lineno']) ?? positive(o['line']) ?? positive(o['line_number']),
    colno: positive(o['colno']) ?? positive(o['column']) ?? positive(o['column_number']),
  }
}

const record = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null

function linesOf(v: unknown): string[] {
  if (typeof v === 'string') return v.split(/\r?\n/)
  if (Array.isArray(v)) return v.filter((l): l is string => typeof l === 'string')
  return []
}

/**
 * The frames of an event's `context.exception`, in the order sent (the SDK and Ruby send the
 * innermost first; a Python traceback is outermost first): `frames` (objects) when present and
 * non-empty, else `backtrace` (an array of strings or one string), else `stack` (a raw
 * `Error.stack`). At most {@link MAX_FRAMES}. Never throws.
 */
export function framesOfEvent(payload: Readonly<Record<string, unknown>>): StackFrame[] {
  const exception = record(record(payload['context'])?.['exception'])
  if (!exception) return []
  const objects = Array.isArray(exception['frames']) ? exception['frames'] : []
  const fromObjects = objects
    .map(record)
    .filter((o): o is Record<string, unknown> => o !== null)
    .map(frameOfObject)
  if (fromObjects.length > 0) return fromObjects.slice(0, MAX_FRAMES)
  for (const key of ['backtrace', 'stack']) {
    const parsed = linesOf(exception[key])
      .map(parseFrameLine)
      .filter((f): f is StackFrame => f !== null)
    if (parsed.length > 0) return parsed.slice(0, MAX_FRAMES)
  }
  return []
}
