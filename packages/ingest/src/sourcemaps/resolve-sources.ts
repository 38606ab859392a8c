import type { ArtifactLookup, StoredArtifact } from '../ports'
import { type Position, sourceFileKey } from './resolve-frames'
import { candidateUrls, joinUrl } from './resolve-urls'

// Context for a map without `sourcesContent`: the `source` file uploaded in the same bundle,
// named by the source's URL beside the map (`~/assets/app.js.map` + `../src/a.ts` →
// `~/src/a.ts`). Files are found by release, so only bundles with a release have them.

/**
 * The texts of the sources `positions` lack, by {@link sourceFileKey}: one look-up per
 * (project, release, dist) for all their URLs, one read for all the files found.
 */
export async function missingSources(
  projectId: string,
  positions: readonly Position[],
  lookup: ArtifactLookup,
): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const wanted = positions.filter((p) => p.content === null && p.loc.release !== null)
  const scopes = new Map<string, { release: string; dist: string | null; wanted: Position[] }>()
  for (const p of wanted) {
    const key = JSON.stringify([p.loc.release, p.loc.dist])
    const scope = scopes.get(key) ?? {
      release: p.loc.release as string,
      dist: p.loc.dist,
      wanted: [],
    }
    scope.wanted.push(p)
    scopes.set(key, scope)
  }
  const found = new Map<string, StoredArtifact>()
  for (const { release, dist, wanted: list } of scopes.values()) {
    const urls = [...new Set(list.flatMap((p) => candidateUrls(joinUrl(p.loc.url, p.source))))]
    const files = await lookup.findArtifactsByUrl(projectId, release, dist, urls)
    for (const p of list) {
      const names = candidateUrls(joinUrl(p.loc.url, p.source))
      const file = files.find(
        (f) => f.type === 'source' && f.bundleId === p.loc.bundleId && names.includes(f.url),
      )
      if (file) found.set(sourceFileKey(p), file)
    }
  }
  if (found.size === 0) return out
  const bytes = await lookup.readArtifacts([...new Set([...found.values()].map((f) => f.sha1))])
  const decoder = new TextDecoder()
  for (const [key, file] of found) {
    const content = bytes.get(file.sha1)
    if (content) out.set(key, decoder.decode(content))
  }
  return out
}
