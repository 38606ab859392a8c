import type { ArtifactLookup, StoredArtifact } from '../ports'
import {
  candidateUrls,
  dataUrlBytes,
  displayUrl,
  joinUrl,
  sourceMappingUrlOf,
} from './resolve-urls'

// Finding the map of each script a round's frames ran in, with as few look-ups as the steps
// allow: every debug ID of the round in one query per project, then every URL of the frames
// left in one query per (project, release, dist), then the maps those scripts reference.

/** A script to find the map of: a frame's file in one event. */
export interface MapRequest {
  readonly projectId: string
  /** The frame's `filename` as sent. */
  readonly file: string
  /** The debug ID the event's `debug_meta` gives this file, if any. */
  readonly debugId: string | null
  readonly release: string | null
  readonly dist: string | null
}

/** Where a script's map is, or why none was found. */
export type MapLocation =
  | {
      readonly found: true
      /** The cache key: the map's SHA-1, or `inline:` + its script's. */
      readonly key: string
      /** The map's uploaded url (a `data:` map: its script's, `(inline)`). */
      readonly url: string
      readonly with: 'debug_id' | 'release'
      readonly debugId: string | null
      readonly bundleId: string
      /** The map's bytes when they came inline in its script. */
      readonly inline: Uint8Array | null
      readonly release: string | null
      readonly dist: string | null
    }
  | { readonly found: false; readonly problem: string }

/** The key of a request in {@link locateMaps}'s answer. */
export const requestKey = (r: MapRequest): string =>
  JSON.stringify([r.projectId, r.file, r.debugId, r.release, r.dist])

const scopeKey = (projectId: string, release: string, dist: string | null) =>
  JSON.stringify([projectId, release, dist])
const fileKey = (scope: string, url: string) => `${scope}\n${url}`
const debugKey = (projectId: string, debugId: string) => `${projectId}\n${debugId}`

/** Groups values under a key, each distinct once. */
function groupDistinct<T>(items: Iterable<[string, T]>): Map<string, Set<T>> {
  const out = new Map<string, Set<T>>()
  for (const [key, value] of items) {
    const set = out.get(key) ?? new Set<T>()
    set.add(value)
    out.set(key, set)
  }
  return out
}

/** Files by (project, debug ID), one query per project for all the IDs asked. */
async function byDebugIds(
  lookup: ArtifactLookup,
  wanted: Iterable<[string, string]>,
  into: Map<string, StoredArtifact[]>,
): Promise<void> {
  for (const [projectId, ids] of groupDistinct(wanted)) {
    const missing = [...ids].filter((id) => !into.has(debugKey(projectId, id)))
    if (missing.length === 0) continue
    for (const id of missing) into.set(debugKey(projectId, id), [])
    for (const file of await lookup.findArtifactsByDebugId(projectId, missing)) {
      if (file.debugId !== null) into.get(debugKey(projectId, file.debugId))?.push(file)
    }
  }
}

type Scope = { readonly projectId: string; readonly release: string; readonly dist: string | null }

/** Files by (project, release, dist, url), one query per scope for all the URLs asked. */
async function byUrls(
  lookup: ArtifactLookup,
  wanted: Iterable<[Scope, readonly string[]]>,
): Promise<Map<string, StoredArtifact[]>> {
  const scopes = new Map<string, Scope>()
  const urls = groupDistinct(
    [...wanted].flatMap(([scope, list]) => {
      const key = scopeKey(scope.projectId, scope.release, scope.dist)
      scopes.set(key, scope)
      return list.map((url): [string, string] => [key, url])
    }),
  )
  const out = new Map<string, StoredArtifact[]>()
  for (const [key, list] of urls) {
    const s = scopes.get(key) as Scope
    for (const file of await lookup.findArtifactsByUrl(s.projectId, s.release, s.dist, [...list])) {
      const at = fileKey(key, file.url)
      out.set(at, [...(out.get(at) ?? []), file])
    }
  }
  return out
}

const mapOf = (files: readonly StoredArtifact[] | undefined) =>
  files?.find((f) => f.type === 'source_map')

const found = (
  map: StoredArtifact,
  via: 'debug_id' | 'release',
): MapLocation & { found: true } => ({
  found: true,
  key: map.sha1,
  url: map.url,
  with: via,
  debugId: map.debugId,
  bundleId: map.bundleId,
  inline: null,
  release: map.release,
  dist: map.dist,
})

const inRelease = (r: MapRequest) =>
  `in release ${r.release}${r.dist === null ? '' : ` (dist ${r.dist})`}`

/**
 * Finds the map of every request: by its debug ID, else by the event's release and dist and
 * the file's URL (the script, then the map its debug ID, `sourcemap` header or
 * `sourceMappingURL` comment names). Answers by {@link requestKey}.
 */
export async function locateMaps(
  requests: readonly MapRequest[],
  lookup: ArtifactLookup,
): Promise<Map<string, MapLocation>> {
  const out = new Map<string, MapLocation>()
  const unique = [...new Map(requests.map((r) => [requestKey(r), r])).values()]
  const debug = new Map<string, StoredArtifact[]>()
  await byDebugIds(
    lookup,
    unique.flatMap((r): [string, string][] => (r.debugId ? [[r.projectId, r.debugId]] : [])),
    debug,
  )
  const byRelease: MapRequest[] = []
  for (const r of unique) {
    const map = r.debugId ? mapOf(debug.get(debugKey(r.projectId, r.debugId))) : undefined
    if (map) out.set(requestKey(r), found(map, 'debug_id'))
    else if (r.release !== null) byRelease.push(r)
    else {
      const problem = r.debugId
        ? `no source map uploaded with debug ID ${r.debugId}`
        : `no debug ID for ${displayUrl(r.file)} and no release on the event`
      out.set(requestKey(r), { found: false, problem })
    }
  }
  if (byRelease.length > 0) await locateByRelease(byRelease, lookup, debug, out)
  return out
}

/** The release + URL fallback of {@link locateMaps}. */
async function locateByRelease(
  requests: readonly MapRequest[],
  lookup: ArtifactLookup,
  debug: Map<string, StoredArtifact[]>,
  out: Map<string, MapLocation>,
): Promise<void> {
  const scopeOf = (r: MapRequest): Scope => ({
    projectId: r.projectId,
    release: r.release as string,
    dist: r.dist,
  })
  const keyOf = (r: MapRequest) => scopeKey(r.projectId, r.release as string, r.dist)
  const scripts = await byUrls(
    lookup,
    requests.map((r): [Scope, string[]] => [scopeOf(r), candidateUrls(r.file)]),
  )
  const located: { r: MapRequest; script: StoredArtifact }[] = []
  for (const r of requests) {
    const script = candidateUrls(r.file)
      .flatMap((url) => scripts.get(fileKey(keyOf(r), url)) ?? [])
      .find((f) => f.type === 'minified_source')
    if (script) located.push({ r, script })
    else {
      const problem = `no source map uploaded for ${displayUrl(r.file)} ${inRelease(r)}`
      out.set(requestKey(r), {
        found: false,
        problem: r.debugId ? `${problem} nor with debug ID ${r.debugId}` : problem,
      })
    }
  }
  // A script that carries a debug ID is paired with the map of that ID, whatever its header says.
  await byDebugIds(
    lookup,
    located.flatMap(({ r, script }): [string, string][] =>
      script.debugId ? [[r.projectId, script.debugId]] : [],
    ),
    debug,
  )
  const unheaded = located.filter(
    ({ script }) => !script.headers['sourcemap'] && !script.headers['x-sourcemap'],
  )
  const contents =
    unheaded.length > 0
      ? await lookup.readArtifacts([...new Set(unheaded.map(({ script }) => script.sha1))])
      : new Map<string, Uint8Array>()
  const references = located.map(({ r, script }) => {
    const bytes = contents.get(script.sha1)
    const ref =
      script.headers['sourcemap'] ??
      script.headers['x-sourcemap'] ??
      (bytes ? sourceMappingUrlOf(new TextDecoder().decode(bytes)) : undefined)
    return { r, script, ref: ref === undefined ? undefined : joinUrl(script.url, ref) }
  })
  const maps = await byUrls(
    lookup,
    references.flatMap(({ r, ref }): [Scope, string[]][] =>
      ref && !ref.startsWith('data:') ? [[scopeOf(r), candidateUrls(ref)]] : [],
    ),
  )
  for (const { r, script, ref } of references) {
    const own = script.debugId ? mapOf(debug.get(debugKey(r.projectId, script.debugId))) : undefined
    const named =
      ref && !ref.startsWith('data:')
        ? candidateUrls(ref)
            .map((url) => mapOf(maps.get(fileKey(keyOf(r), url))))
            .find(Boolean)
        : undefined
    const inline = ref?.startsWith('data:') ? dataUrlBytes(ref) : undefined
    if (own ?? named) out.set(requestKey(r), found((own ?? named) as StoredArtifact, 'release'))
    else if (inline) {
      out.set(requestKey(r), {
        ...found(script, 'release'),
        key: `inline:${script.sha1}`,
        url: `${script.url} (inline)`,
        inline,
      })
    } else {
      const problem = ref?.startsWith('data:')
        ? `the inline source map of ${displayUrl(script.url)} is not a valid data: URL`
        : ref
          ? `source map ${displayUrl(ref)} of ${displayUrl(script.url)} is not uploaded ${inRelease(r)}`
          : `${displayUrl(script.url)} names no source map (no sourcemap header nor sourceMappingURL comment)`
      out.set(requestKey(r), { found: false, problem })
    }
  }
}
