import { originalPositionFor, sourceContentFor, type TraceMap } from '@jridgewell/trace-mapping'
import type { CachedMap } from './map-cache'
import { contextOf } from './resolve-context'
import type { MapLocation } from './resolve-locate'
import { isLibraryPath, joinUrl } from './resolve-urls'

// Applying maps to one event's frames (innermost first). Positions are 1-based on frames and
// 1-based line / 0-based column for trace-mapping; names come from the caller's call site.

/** A frame as `context.exception.frames` holds it. */
export type Frame = Readonly<Record<string, unknown>>

/** What the resolver writes on a frame under `sourcemap`. */
export interface FrameSourceMap {
  readonly resolved: boolean
  readonly with?: 'debug_id' | 'release'
  readonly debug_id?: string
  readonly map?: string
  readonly problem?: string
}

/** Fields of the frame as sent that a resolved frame replaces (they describe the minified code). */
const REPLACED = ['function', 'module', 'abs_path', 'pre_context', 'context_line', 'post_context']

/** The frame without the marks of an earlier resolution attempt. */
export function sentFrame(frame: Frame): Frame {
  if (!('sourcemap' in frame)) return frame
  const { sourcemap: _, ...rest } = frame
  return rest
}

const OUTSIDE = ' is outside the map'

/** Why a frame whose map was found covers no original code at its place. */
const outsideMap = (where: string, url?: string) => `${where}${OUTSIDE}${url ? ` ${url}` : ''}`

/**
 * A frame left as sent, with why. One whose map was found but covers nothing at its place is
 * not in the app: code the bundler or a tool added (the debug-ID snippet, a banner) or code
 * evaluated at run time, whose place differs from build to build and must not split an issue.
 */
const unresolved = (sent: Frame, problem: string): Frame => ({
  ...sent,
  ...(problem.includes(OUTSIDE) ? { in_app: false } : {}),
  sourcemap: { resolved: false, problem } satisfies FrameSourceMap,
})

/** A frame's original position, found in its map. */
export interface Position {
  readonly map: TraceMap
  readonly loc: MapLocation & { found: true }
  /** The source as its map names it (after `sourceRoot`). */
  readonly source: string
  readonly line: number
  readonly column: number
  /** The token's name at this position: the name of the function called here. */
  readonly name: string | null
  /** The source's text from the map's `sourcesContent`, `null` without it. */
  readonly content: string | null
}

/** Where a source would be uploaded beside its map (its `source` file), keyed by bundle. */
export const sourceFileKey = (at: Position): string =>
  `${at.loc.bundleId}\n${joinUrl(at.loc.url, at.source)}`

/** The text of a map's source, `null` when the map lacks it or the entry is not a string. */
function contentOf(map: TraceMap, source: string): string | null {
  try {
    const content = sourceContentFor(map, source)
    return typeof content === 'string' ? content : null
  } catch {
    return null // a malformed sourcesContent is no content
  }
}

/** The original position of one frame, or why there is none. */
function positionOf(
  sent: Frame,
  loc: MapLocation,
  maps: ReadonlyMap<string, CachedMap>,
): Position | string {
  if (!loc.found) return loc.problem
  const cached = maps.get(loc.key)
  if (cached === undefined) return `source map ${loc.url} could not be read`
  if (!cached.ok) return `source map ${loc.url} failed to parse: ${cached.problem}`
  const lineno = sent['lineno']
  const colno = typeof sent['colno'] === 'number' ? sent['colno'] : 1
  if (typeof lineno !== 'number') return 'the frame has no line number'
  if (lineno < 1) return outsideMap(`line ${lineno}`)
  try {
    const p = originalPositionFor(cached.map, { line: lineno, column: Math.max(0, colno - 1) })
    if (p.source === null) return outsideMap(`line ${lineno}, column ${colno}`, loc.url)
    const { source, line, column, name } = p
    return {
      map: cached.map,
      loc,
      source,
      line,
      column,
      name,
      content: contentOf(cached.map, source),
    }
  } catch (error) {
    return `source map ${loc.url} failed to parse: ${(error as Error).message}`
  }
}

/** A resolved frame: original place, the caller-derived name, context, and the frame as sent. */
function resolvedFrame(
  sent: Frame,
  at: Position,
  name: string | null,
  content: string | null,
): Frame {
  const rest: Record<string, unknown> = { ...sent }
  for (const field of REPLACED) delete rest[field]
  const marker: FrameSourceMap = {
    resolved: true,
    with: at.loc.with,
    ...(at.loc.debugId === null ? {} : { debug_id: at.loc.debugId }),
    map: at.loc.url,
  }
  const context = typeof content === 'string' ? contextOf(content, at.line, at.column) : undefined
  const file = typeof sent['filename'] === 'string' ? sent['filename'] : ''
  return {
    ...rest,
    ...(name ? { function: name } : {}),
    filename: at.source,
    abs_path: file ? joinUrl(file, at.source) : at.source,
    lineno: at.line,
    colno: at.column + 1,
    in_app: !isLibraryPath(at.source),
    ...context,
    raw: sent,
    sourcemap:
      typeof content === 'string'
        ? marker
        : { ...marker, problem: `map has no sourcesContent for ${at.source}` },
  }
}

/**
 * The original position of each frame `locate` answers for (`undefined` for a frame to leave
 * as it is), or why it has none.
 */
export function positionsOf(
  frames: readonly Frame[],
  locate: (frame: Frame, index: number) => MapLocation | undefined,
  maps: ReadonlyMap<string, CachedMap>,
): readonly (Position | string | undefined)[] {
  return frames.map((frame, i) => {
    const loc = locate(frame, i)
    return loc === undefined ? undefined : positionOf(sentFrame(frame), loc, maps)
  })
}

/**
 * Rewrites the frames at their {@link positionsOf}. A resolved frame is named by the token at
 * its caller's (the next frame's) call site, else left without a name: a minified name is
 * never kept on a resolved frame. `sources` holds the texts of sources the maps lack, by
 * {@link sourceFileKey}.
 */
export function resolveFrames(
  frames: readonly Frame[],
  positions: readonly (Position | string | undefined)[],
  sources: ReadonlyMap<string, string>,
): { readonly frames: readonly Frame[]; readonly bundleIds: readonly string[] } {
  const bundleIds = new Set<string>()
  const out = frames.map((frame, i) => {
    const at = positions[i]
    if (at === undefined) return frame
    if (typeof at === 'string') return unresolved(sentFrame(frame), at)
    bundleIds.add(at.loc.bundleId)
    const caller = positions[i + 1]
    const name = typeof caller === 'object' ? caller.name : null
    const content = at.content ?? sources.get(sourceFileKey(at)) ?? null
    return resolvedFrame(sentFrame(frame), at, name, content)
  })
  return { frames: out, bundleIds: [...bundleIds] }
}
