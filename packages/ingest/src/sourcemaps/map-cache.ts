import type { TraceMap } from '@jridgewell/trace-mapping'

// Parsed source maps, least recently used first out. Parsing and decoding a 5 MB map costs
// 30–60 ms, and one deploy's maps serve every error of that deploy: the cache is what keeps
// resolution cheap. It is bounded by the maps' sizes as stored, summed.

/** The default {@link MapCache} bound: 128 MiB of source maps. */
export const DEFAULT_SOURCE_MAP_CACHE_BYTES = 128 * 1024 * 1024

/** A map as the cache holds it: parsed, or the reason it failed to parse (not retried). */
export type CachedMap =
  | { readonly ok: true; readonly map: TraceMap; readonly bytes: number }
  | { readonly ok: false; readonly problem: string; readonly bytes: number }

/** What the cache holds and how it served (the benchmark reads it). */
export interface MapCacheStats {
  /** Sum of the held maps' sizes (bytes of the map files). */
  readonly bytes: number
  readonly maxBytes: number
  readonly entries: number
  readonly hits: number
  readonly misses: number
  readonly evictions: number
}

/** An LRU of parsed maps by content key (the map's SHA-1, or `inline:` + its script's). */
export interface MapCache {
  get(key: string): CachedMap | undefined
  set(key: string, entry: CachedMap): void
  stats(): MapCacheStats
}

/** A failed parse is kept at this weight: small, but bounded like the rest. */
const FAILED_WEIGHT = 256

/**
 * Creates the cache, bounded to `maxBytes` of map files. A map larger than the bound is never
 * held (the round that read it still uses it).
 */
export function createMapCache(maxBytes: number = DEFAULT_SOURCE_MAP_CACHE_BYTES): MapCache {
  const entries = new Map<string, CachedMap>()
  let bytes = 0
  let hits = 0
  let misses = 0
  let evictions = 0
  const weight = (e: CachedMap) => (e.ok ? e.bytes : FAILED_WEIGHT)
  return {
    get(key) {
      const entry = entries.get(key)
      if (entry === undefined) {
        misses += 1
        return undefined
      }
      hits += 1
      // Map keeps insertion order: re-inserting makes it the most recently used.
      entries.delete(key)
      entries.set(key, entry)
      return entry
    },
    set(key, entry) {
      const old = entries.get(key)
      if (old !== undefined) {
        entries.delete(key)
        bytes -= weight(old)
      }
      if (weight(entry) > maxBytes) return
      entries.set(key, entry)
      bytes += weight(entry)
      for (const [oldest, held] of entries) {
        if (bytes <= maxBytes) break
        entries.delete(oldest)
        bytes -= weight(held)
        evictions += 1
      }
    },
    stats: () => ({ bytes, maxBytes, entries: entries.size, hits, misses, evictions }),
  }
}
