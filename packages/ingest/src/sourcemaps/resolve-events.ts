import { AnyMap, decodedMappings, TraceMap } from '@jridgewell/trace-mapping'
import type { NormalizedEvent } from '@tis/schema'
import type { ArtifactLookup } from '../ports'
import type { CachedMap, MapCache } from './map-cache'
import { type Frame, type Position, positionsOf, resolveFrames } from './resolve-frames'
import { locateMaps, type MapLocation, type MapRequest, requestKey } from './resolve-locate'
import { missingSources } from './resolve-sources'
import { isJavaScriptFile } from './resolve-urls'

// One pass over a set of events (a projection round, or the events a read returns): which
// frames to resolve, their maps found and parsed (through the cache) in one go, then each
// event's frames rewritten. An event with nothing to resolve comes back as the same object.

/** An event to resolve and the project it belongs to. */
export interface EventToResolve {
  readonly projectId: string
  readonly event: NormalizedEvent
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** `context.exception.frames` (innermost first), `undefined` without any. */
export function framesOf(event: NormalizedEvent): readonly Frame[] | undefined {
  const exception = event.context['exception']
  const frames = isObject(exception) ? exception['frames'] : undefined
  return Array.isArray(frames) && frames.length > 0 ? (frames as Frame[]) : undefined
}

/** The event with other frames, everything else shared. */
export function withFrames(event: NormalizedEvent, frames: readonly Frame[]): NormalizedEvent {
  const exception = event.context['exception'] as Record<string, unknown>
  return { ...event, context: { ...event.context, exception: { ...exception, frames } } }
}

/** `code_file → debug_id` of the event's source-map images. */
function debugIdsOf(event: NormalizedEvent): Map<string, string> {
  const meta = event.context['debug_meta']
  const images = isObject(meta) && Array.isArray(meta['images']) ? meta['images'] : []
  const out = new Map<string, string>()
  for (const image of images) {
    if (!isObject(image) || image['type'] !== 'sourcemap') continue
    const file = image['code_file']
    const id = image['debug_id']
    if (typeof file === 'string' && typeof id === 'string') out.set(file, id.toLowerCase())
  }
  return out
}

/**
 * The map request of a frame, `undefined` for one to leave alone: already resolved, not
 * JavaScript (a `.js`/`.mjs`/`.cjs` file, or a file with a debug ID image).
 */
function requestOf(
  frame: Frame,
  projectId: string,
  event: NormalizedEvent,
  images: ReadonlyMap<string, string>,
): MapRequest | undefined {
  if (!isObject(frame) || 'raw' in frame) return undefined
  const mark = frame['sourcemap']
  if (isObject(mark) && mark['resolved'] === true) return undefined
  const sent = frame['filename']
  if (typeof sent !== 'string' || sent === '') return undefined
  const file = sent.replace(/^async /, '')
  const debugId = images.get(file) ?? null
  if (debugId === null && !isJavaScriptFile(file)) return undefined
  const dist = event.context['dist']
  return {
    projectId,
    file,
    debugId,
    release: typeof event.release === 'string' && event.release !== '' ? event.release : null,
    dist: typeof dist === 'string' && dist !== '' ? dist : null,
  }
}

/** A map's bytes parsed, or why they do not parse. */
export function parseMap(bytes: Uint8Array): CachedMap {
  try {
    const json: unknown = JSON.parse(new TextDecoder().decode(bytes))
    if (!isObject(json)) throw new Error('not a JSON object')
    const map = 'sections' in json ? new AnyMap(json as never) : new TraceMap(json as never)
    // Decoding now makes a broken `mappings` fail here, once, and not at every frame.
    decodedMappings(map)
    return { ok: true, map, bytes: bytes.length }
  } catch (error) {
    return { ok: false, problem: (error as Error).message, bytes: bytes.length }
  }
}

/** The parsed maps of the found locations: from the cache, else read (all at once) and parsed. */
async function mapsOf(
  locations: Iterable<MapLocation>,
  lookup: ArtifactLookup,
  cache: MapCache,
): Promise<Map<string, CachedMap>> {
  const round = new Map<string, CachedMap>()
  const toRead = new Set<string>()
  for (const loc of locations) {
    if (!loc.found || round.has(loc.key)) continue
    const cached = cache.get(loc.key)
    if (cached) round.set(loc.key, cached)
    else if (loc.inline) round.set(loc.key, parseMap(loc.inline))
    else toRead.add(loc.key)
  }
  const read = toRead.size > 0 ? await lookup.readArtifacts([...toRead]) : new Map()
  for (const [sha1, bytes] of read) round.set(sha1, parseMap(bytes))
  for (const [key, map] of round) cache.set(key, map)
  return round
}

/** The sources the maps lack, for every project of the pass. */
async function sourcesOf(
  items: readonly EventToResolve[],
  positions: readonly (readonly (Position | string | undefined)[] | undefined)[],
  lookup: ArtifactLookup,
): Promise<Map<string, string>> {
  const byProject = new Map<string, Position[]>()
  items.forEach(({ projectId }, i) => {
    for (const p of positions[i] ?? []) {
      if (typeof p === 'object' && p.content === null) {
        byProject.set(projectId, [...(byProject.get(projectId) ?? []), p])
      }
    }
  })
  const out = new Map<string, string>()
  for (const [projectId, list] of byProject) {
    for (const [key, text] of await missingSources(projectId, list, lookup)) out.set(key, text)
  }
  return out
}

/**
 * Resolves the frames of `items`: events in, events out, in order; one not changed is the
 * same object. Marks the bundles used (`touchArtifactBundles`).
 */
export async function resolveEventFrames(
  items: readonly EventToResolve[],
  lookup: ArtifactLookup,
  cache: MapCache,
  now: () => Date,
): Promise<readonly NormalizedEvent[]> {
  const plans = items.map(({ projectId, event }) => {
    const frames = framesOf(event)
    if (frames === undefined) return undefined
    const images = debugIdsOf(event)
    const requests = frames.map((f) => requestOf(f, projectId, event, images))
    return { frames, requests, withDebugIds: images.size > 0 }
  })
  const requests = plans.flatMap((p) => p?.requests.filter((r) => r !== undefined) ?? [])
  if (requests.length === 0) return items.map((i) => i.event)
  const locations = await locateMaps(requests, lookup)
  const maps = await mapsOf(locations.values(), lookup, cache)
  const positions = plans.map((plan) => {
    if (plan === undefined || plan.requests.every((r) => r === undefined)) return undefined
    return positionsOf(
      plan.frames,
      (_, at) => {
        const r = plan.requests[at]
        return r === undefined ? undefined : locations.get(requestKey(r))
      },
      maps,
    )
  })
  const sources = await sourcesOf(items, positions, lookup)
  const used = new Set<string>()
  const events = items.map(({ event }, i) => {
    const plan = plans[i]
    const at = positions[i]
    if (plan === undefined || at === undefined) return event
    // An event whose SDK sent no debug IDs and none of whose scripts has a map uploaded is
    // code the project does not map (a Node service, say): left as it is, rather than every
    // frame saying "no source map uploaded" (and the payload growing by that at every event).
    const mapped = plan.requests.some((r) => r !== undefined && locations.get(requestKey(r))?.found)
    if (!plan.withDebugIds && !mapped) return event
    const out = resolveFrames(plan.frames, at, sources)
    for (const id of out.bundleIds) used.add(id)
    return withFrames(event, out.frames)
  })
  if (used.size > 0) await lookup.touchArtifactBundles([...used], now())
  return events
}
