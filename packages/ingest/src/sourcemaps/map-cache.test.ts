import { TraceMap } from '@jridgewell/trace-mapping'
import { describe, expect, it } from 'vitest'
import { createMapCache, DEFAULT_SOURCE_MAP_CACHE_BYTES } from './map-cache'

const map = new TraceMap({ version: 3, sources: [], names: [], mappings: '' })
const entry = (bytes: number) => ({ ok: true as const, map, bytes })

describe('the parsed-map cache', () => {
  it('holds maps up to its bound, evicting the least recently used first', () => {
    const cache = createMapCache(1_000)
    cache.set('a', entry(400))
    cache.set('b', entry(400))
    expect(cache.get('a')).toBeDefined() // b is now the least recently used
    cache.set('c', entry(400))
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBeDefined()
    expect(cache.stats()).toEqual({
      bytes: 800,
      maxBytes: 1_000,
      entries: 2,
      hits: 2,
      misses: 1,
      evictions: 1,
    })
  })

  it('never holds a map larger than the bound, and replaces a key in place', () => {
    const cache = createMapCache(1_000)
    cache.set('a', entry(300))
    cache.set('a', entry(500))
    cache.set('huge', entry(1_001))
    expect(cache.stats()).toMatchObject({ bytes: 500, entries: 1, evictions: 0 })
    cache.set('bad', { ok: false, problem: 'Unexpected end of JSON input', bytes: 5_000_000 })
    expect(cache.get('bad')).toMatchObject({ ok: false })
    expect(cache.stats().bytes).toBe(756)
  })

  it('defaults to 128 MiB', () => {
    expect(DEFAULT_SOURCE_MAP_CACHE_BYTES).toBe(134_217_728)
    expect(createMapCache().stats().maxBytes).toBe(134_217_728)
  })
})
