/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { Frame as FrameJson } from '@tis/schema'
import type { Html } from '../layout'
import type { FrameVars } from './frame-vars'

// The source-map side of a stack frame (docs/sourcemaps.md): the original lines the projection
// cut from the map's `sourcesContent`, the frame as sent (`raw`), and why a frame is not resolved.

/** The frame as the SDK sent it, kept under `raw` by the resolution. */
export interface RawFrame {
  readonly function: string | null
  readonly filename: string | null
  readonly lineno: number | null
  readonly colno: number | null
}

/** What the resolution says about a frame (`sourcemap`). */
export interface FrameMapping {
  readonly resolved: boolean
  readonly with: string | null
  readonly problem: string | null
}

/** A frame of the page: the detail's frame (with its excerpt) and the stored frame's map fields. */
export type ShownFrame = Omit<FrameJson, 'source'> & {
  readonly source?: FrameJson['source']
  readonly pre_context?: readonly string[]
  readonly context_line?: string
  readonly post_context?: readonly string[]
  readonly raw?: RawFrame
  readonly sourcemap?: FrameMapping
  /** The stored frame's own `in_app` (SDK or resolution): library frames collapse on it. */
  readonly app?: boolean
  /** The stored frame's local variables (`withVars`). */
  readonly vars?: FrameVars
}

const record = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null)
const lines = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((l): l is string => typeof l === 'string') : undefined

function mapFieldsOf(o: Record<string, unknown>): Partial<ShownFrame> {
  const raw = record(o['raw'])
  const map = record(o['sourcemap'])
  const pre = lines(o['pre_context'])
  const post = lines(o['post_context'])
  const line = typeof o['context_line'] === 'string' ? o['context_line'] : undefined
  // A frame the resolution touched is the truth about its position: the detail's frames may have
  // been read from the stored, minified payload when the read API resolved the event afresh.
  const position =
    raw || map
      ? {
          function: text(o['function']),
          filename: text(o['filename']) ?? text(o['abs_path']),
          lineno: int(o['lineno']),
          colno: int(o['colno']),
        }
      : {}
  return {
    ...position,
    ...(pre ? { pre_context: pre } : {}),
    ...(line === undefined ? {} : { context_line: line }),
    ...(post ? { post_context: post } : {}),
    ...(raw
      ? {
          raw: {
            function: text(raw['function']),
            filename: text(raw['filename']) ?? text(raw['abs_path']),
            lineno: int(raw['lineno']),
            colno: int(raw['colno']),
          },
        }
      : {}),
    ...(map
      ? {
          sourcemap: {
            resolved: map['resolved'] === true,
            with: text(map['with']),
            problem: text(map['problem']),
          },
        }
      : {}),
    ...(typeof o['in_app'] === 'boolean' ? { app: o['in_app'] } : {}),
  }
}

/**
 * The detail's frames with the source-map fields of the stored `context.exception.frames`: the
 * detail's frames are read from those objects in order (the same filter), so index i is frame i.
 */
export function withMapFields(
  frames: readonly FrameJson[],
  stored: unknown,
): readonly ShownFrame[] {
  const objects = Array.isArray(stored) ? stored.map(record).filter((o) => o !== null) : []
  if (objects.length === 0) return frames
  return frames.map((f, i) => ({ ...f, ...mapFieldsOf(objects[i] ?? {}) }))
}

/** Whether any frame went through the resolution, so the page offers the frames as sent. */
export const hasMapFields = (frames: readonly ShownFrame[]) =>
  frames.some((f) => f.raw !== undefined || f.sourcemap !== undefined)

/** The original lines around the frame's line, from the map; the frame's own line marked. */
export function MapContext({ frame }: { frame: ShownFrame }): Html | null {
  if (frame.context_line === undefined) return null
  const pre = frame.pre_context ?? []
  const post = frame.post_context ?? []
  const first = frame.lineno === null ? null : frame.lineno - pre.length
  const number = (i: number) => (first === null ? '' : String(first + i))
  const row = (line: string, i: number) => (
    <tr>
      <th scope="row" class="ln">
        {number(i)}
      </th>
      <td>
        <code>{line}</code>
      </td>
    </tr>
  )
  return (
    <div class="excerpt">
      <table>
        <caption>
          <code>{`${frame.filename ?? '?'}:${frame.lineno ?? '?'}`}</code>{' '}
          <span class="muted">from the source map</span>
        </caption>
        <tbody>
          {pre.map(row)}
          <tr class="hit" aria-current="true">
            <th scope="row" class="ln">
              <span class="skip">Error line </span>
              {number(pre.length)}
            </th>
            <td>
              <code>{frame.context_line}</code>
            </td>
          </tr>
          {post.map((l, i) => row(l, pre.length + 1 + i))}
        </tbody>
      </table>
    </div>
  )
}

/** `file:line:column` of a frame, `?` for what is missing. */
export const where = (f: RawFrame) => `${f.filename ?? '?'}:${f.lineno ?? '?'}:${f.colno ?? '?'}`

/** The minified position a resolved frame came from, and how its map was found. */
export function SentAs({ frame }: { frame: ShownFrame }): Html | null {
  if (!frame.raw || !frame.sourcemap?.resolved) return null
  const how = frame.sourcemap.with === 'debug_id' ? 'by debug ID' : 'by release and URL'
  return (
    <p class="muted sent-as">
      {'Sent as '}
      <code>{frame.raw.function ?? '<anonymous>'}</code>
      {' at '}
      <code>{where(frame.raw)}</code>
      {`, mapped ${how}.`}
    </p>
  )
}

/** Why the frame is not (fully) resolved: the resolution's words, and where uploading is explained. */
export function MapProblem({ frame }: { frame: ShownFrame }): Html | null {
  const problem = frame.sourcemap?.problem
  if (!problem) return null
  return (
    <p class="muted map-problem">
      {frame.sourcemap?.resolved ? `Source map: ${problem}.` : `Not resolved: ${problem}.`}{' '}
      <a href="/docs/sourcemaps.html">Uploading source maps</a>
    </p>
  )
}
