import { strFromU8, strToU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { parseArtifactBundle } from './bundle'
import { bundleDebugId, bundleEntryName, writeArtifactBundle } from './bundle-writer'

const ID = 'f6252536-61a8-5fd0-8deb-93c12ba4ecc7'
const JS = strToU8(`console.log(1)\n//# debugId=${ID}\n//# sourceMappingURL=app.min.js.map\n`)
const MAP = strToU8(JSON.stringify({ version: 3, sources: [], mappings: '', debug_id: ID }))
const FILES = [
  {
    url: '~/static/js/app.min.js',
    type: 'minified_source' as const,
    content: JS,
    headers: { 'debug-id': ID, sourcemap: 'app.min.js.map' },
  },
  {
    url: '~/static/js/app.min.js.map',
    type: 'source_map' as const,
    content: MAP,
    headers: { 'debug-id': ID },
  },
]

const u32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getUint32(at, true)

describe('writeArtifactBundle', () => {
  const bundle = writeArtifactBundle({ files: FILES, release: '1.0.0', dist: 'web' })

  it('starts with SYSB and format version 2, then the zip at byte 8', () => {
    expect([...bundle.subarray(0, 8)]).toEqual([0x53, 0x59, 0x53, 0x42, 2, 0, 0, 0])
    expect(u32(bundle, 8)).toBe(0x04034b50)
  })

  it('reads back with fflate as is: entries files/_/_/<path> and the manifest', () => {
    const entries = unzipSync(bundle)
    expect(Object.keys(entries).sort()).toEqual([
      'files/_/_/static/js/app.min.js',
      'files/_/_/static/js/app.min.js.map',
      'manifest.json',
    ])
    expect(entries['files/_/_/static/js/app.min.js']).toEqual(JS)
    expect(entries['files/_/_/static/js/app.min.js.map']).toEqual(MAP)
    expect(JSON.parse(strFromU8(entries['manifest.json']!))).toEqual({
      files: {
        'files/_/_/static/js/app.min.js': {
          url: '~/static/js/app.min.js',
          type: 'minified_source',
          headers: { 'debug-id': ID, sourcemap: 'app.min.js.map' },
        },
        'files/_/_/static/js/app.min.js.map': {
          url: '~/static/js/app.min.js.map',
          type: 'source_map',
          headers: { 'debug-id': ID },
        },
      },
      release: '1.0.0',
      dist: 'web',
      debug_id: bundleDebugId(FILES),
    })
  })

  it('counts the 8-byte header in every offset (the zip without it no longer reads)', () => {
    const end = bundle.length - 22
    expect(u32(bundle, end)).toBe(0x06054b50)
    let at = u32(bundle, end + 16)
    const count = new DataView(bundle.buffer).getUint16(end + 10, true)
    expect(count).toBe(3)
    const locals: number[] = []
    for (let i = 0; i < count; i++) {
      expect(u32(bundle, at)).toBe(0x02014b50)
      locals.push(u32(bundle, at + 42))
      const view = new DataView(bundle.buffer, at)
      at += 46 + view.getUint16(28, true) + view.getUint16(30, true) + view.getUint16(32, true)
    }
    expect(locals[0]).toBe(8)
    for (const local of locals) expect(u32(bundle, local)).toBe(0x04034b50)
    expect(() => unzipSync(bundle.subarray(8))).toThrow()
  })

  it("is what the engine's bundle parser reads: files, debug IDs, release, dist, bundle ID", () => {
    const parsed = parseArtifactBundle(bundle, { maxUnpackedBytes: 1 << 20, maxFilesPerBundle: 10 })
    expect(parsed).toMatchObject({
      debugId: bundleDebugId(FILES),
      release: '1.0.0',
      dist: 'web',
      files: [
        { url: '~/static/js/app.min.js', type: 'minified_source', debugId: ID, size: JS.length },
        { url: '~/static/js/app.min.js.map', type: 'source_map', debugId: ID, size: MAP.length },
      ],
    })
  })

  it('leaves release and dist out when not given, and takes a given bundle ID', () => {
    const manifest = (b: Uint8Array) => JSON.parse(strFromU8(unzipSync(b)['manifest.json']!))
    const plain = manifest(writeArtifactBundle({ files: FILES }))
    expect(plain).not.toHaveProperty('release')
    expect(plain).not.toHaveProperty('dist')
    expect(manifest(writeArtifactBundle({ files: FILES, debugId: ID })).debug_id).toBe(ID)
  })

  it('is deterministic: the same files give the same bytes (one checksum, one stored bundle)', () => {
    expect(writeArtifactBundle({ files: FILES, release: '1.0.0', dist: 'web' })).toEqual(bundle)
  })
})

describe('bundleEntryName (sentry-cli url_to_bundle_path)', () => {
  it.each([
    ['~/bar', 'files/_/_/bar'],
    ['~/dist/js/bundle.js.map', 'files/_/_/dist/js/bundle.js.map'],
    ['~/#/bar', 'files/_/_/#/bar'],
    ['https://shop.example/assets/app.js', 'files/https/shop.example/assets/app.js'],
    ['app://bundle.js', 'files/app/bundle.js/'],
  ])('%s → %s', (url, entry) => {
    expect(bundleEntryName(url)).toBe(entry)
  })
})

describe('bundleDebugId', () => {
  it('is a version 5 UUID of the files, changing with any byte', () => {
    const id = bundleDebugId(FILES)
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(bundleDebugId(FILES)).toBe(id)
    expect(bundleDebugId([{ ...FILES[0]!, content: strToU8('x') }, FILES[1]!])).not.toBe(id)
  })
})
