import { parseStack, type StackFrame } from '@tis/sdk'

/** One entry of `context.debug_meta.images`: the debug ID of a file the event's frames name. */
export interface DebugImage {
  readonly type: 'sourcemap'
  /** The frame's `filename`, exactly as sent. */
  readonly code_file: string
  readonly debug_id: string
}

// Parsing every stack key again on each error would cost milliseconds on pages with many
// chunks; the map only grows (each loaded chunk adds its key), so the object and its size tell
// when to re-read it, as in Sentry's SDK.
let cache: [object, number, Record<string, string>] | undefined

/**
 * `filename → debug ID` from `globalThis._sentryDebugIds`, which `sentry-cli sourcemaps inject`
 * and Sentry's bundler plugins write: each key is the stack of an `Error` made inside the
 * injected file, so the innermost frame of the key names the file the ID belongs to.
 */
export function debugIdsByFile(): Record<string, string> {
  const ids = (globalThis as { _sentryDebugIds?: Record<string, unknown> })._sentryDebugIds
  if (typeof ids !== 'object' || !ids) return {}
  const stacks = Object.keys(ids)
  if (cache?.[0] !== ids || cache[1] !== stacks.length) {
    const byFile: Record<string, string> = {}
    for (const stack of stacks) {
      const file = parseStack(stack)[0]?.filename
      const id = ids[stack]
      if (file && typeof id === 'string') byFile[file] = id
    }
    cache = [ids, stacks.length, byFile]
  }
  return cache[2]
}

interface Described {
  readonly frames?: readonly StackFrame[]
  readonly cause?: Described
  readonly errors?: readonly Described[]
}

/**
 * The images of `debug_meta` for the files named by the frames of a described exception, its
 * causes and members included; `undefined` when none has a debug ID.
 */
export function debugImages(exception: Described): DebugImage[] | undefined {
  const byFile = debugIdsByFile()
  const used: Record<string, string> = {}
  const visit = (e: Described) => {
    for (const { filename } of e.frames ?? []) {
      if (filename && byFile[filename]) used[filename] = byFile[filename]
    }
    if (e.cause) visit(e.cause)
    e.errors?.forEach(visit)
  }
  visit(exception)
  const images = Object.keys(used).map(
    (code_file): DebugImage => ({ type: 'sourcemap', code_file, debug_id: used[code_file]! }),
  )
  return images.length ? images : undefined
}
