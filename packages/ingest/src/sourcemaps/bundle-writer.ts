// Artifact bundles as `sentry-cli sourcemaps upload` writes them (symbolic's source bundle
// format): `SYSB` + format version 2 (u32 LE), then a zip whose offsets count those 8 bytes.
import { createHash } from 'node:crypto'
import { strToU8, zipSync } from 'fflate'
import type { ArtifactFileType } from '../ports/source-maps'

/** One file to put in an artifact bundle. */
export interface BundleFileInput {
  /** `~/static/js/app.min.js` (any host) or an absolute URL. */
  readonly url: string
  readonly type: ArtifactFileType
  readonly content: Uint8Array
  /** Manifest headers, e.g. `debug-id` and `sourcemap` (the reference as written in the JS). */
  readonly headers?: Readonly<Record<string, string>>
}

/** What {@link writeArtifactBundle} builds a bundle from. */
export interface ArtifactBundleInput {
  readonly files: readonly BundleFileInput[]
  /** @default none: the files must then carry debug IDs for the server to accept the bundle */
  readonly release?: string | undefined
  readonly dist?: string | undefined
  /** The bundle ID; @default a UUID derived from the files, as sentry-cli derives it */
  readonly debugId?: string | undefined
}

/** The magic and format version that precede the zip. */
const HEADER = new Uint8Array([0x53, 0x59, 0x53, 0x42, 2, 0, 0, 0])

/** sentry-cli's Rust names of the file types, which its bundle ID hashes. */
const TYPE_NAMES: Record<ArtifactFileType, string> = {
  minified_source: 'MinifiedSource',
  source_map: 'SourceMap',
  source: 'Source',
  indexed_ram_bundle: 'IndexedRamBundle',
}

/** The zip entry of a url: `~/a/b.js` → `files/_/_/a/b.js`, `https://h/p` → `files/https/h/p`. */
export function bundleEntryName(url: string): string {
  const parsed = new URL(url.startsWith('~/') ? url.slice(2) : url, 'http://~')
  const path = `${parsed.pathname}${parsed.hash}`.replace(/^\//, '')
  const host =
    parsed.host === '~' ? '_/_' : `${parsed.protocol.slice(0, -1)}/${parsed.hostname || '_'}`
  return `files/${host}/${path}`
}

/** sentry-cli's bundle ID: SHA-1 over each file's url, bytes, type and headers, as a v5 UUID. */
export function bundleDebugId(files: readonly BundleFileInput[]): string {
  const hash = createHash('sha1')
  for (const file of files) {
    hash.update(file.url).update(file.content).update(TYPE_NAMES[file.type])
    for (const [key, value] of Object.entries(file.headers ?? {}).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    )) {
      hash.update(key).update(value)
    }
  }
  const bytes = hash.digest().subarray(0, 16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x50
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * Builds an artifact bundle as sentry-cli does: entries `files/_/_/<path>` (deflated) and a
 * `manifest.json` with `files` (`type`, `url`, `headers`), `release`, `dist` and `debug_id`,
 * the zip preceded by the 8-byte `SYSB` header, its offsets counting it.
 */
export function writeArtifactBundle(input: ArtifactBundleInput): Uint8Array {
  const entries: Record<string, Uint8Array> = {}
  const manifestFiles: Record<string, unknown> = {}
  for (const file of input.files) {
    let name = bundleEntryName(file.url)
    // Two urls can map to one entry (`~/a` and `http://~/a`); the manifest keeps both.
    for (let n = 2; name in entries; n++) name = `${bundleEntryName(file.url)}.${n}`
    entries[name] = file.content
    manifestFiles[name] = { url: file.url, type: file.type, headers: { ...file.headers } }
  }
  const manifest = {
    files: manifestFiles,
    ...(input.release !== undefined && { release: input.release }),
    ...(input.dist !== undefined && { dist: input.dist }),
    debug_id: input.debugId ?? bundleDebugId(input.files),
  }
  entries['manifest.json'] = strToU8(JSON.stringify(manifest))
  return prefixZip(zipSync(entries, { level: 6, mtime: new Date('1980-01-01T00:00:00Z') }))
}

/** Puts the header before a zip and moves its offsets (central directory, local headers) by it. */
function prefixZip(zip: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER.length + zip.length)
  out.set(HEADER)
  out.set(zip, HEADER.length)
  const view = new DataView(out.buffer, HEADER.length)
  // fflate writes no archive comment, so the end record is the last 22 bytes.
  const end = zip.length - 22
  if (view.getUint32(end, true) !== 0x06054b50) throw new Error('zip end record not found')
  const count = view.getUint16(end + 10, true)
  let at = view.getUint32(end + 16, true)
  view.setUint32(end + 16, at + HEADER.length, true)
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error('zip directory entry not found')
    view.setUint32(at + 42, view.getUint32(at + 42, true) + HEADER.length, true)
    at +=
      46 +
      view.getUint16(at + 28, true) +
      view.getUint16(at + 30, true) +
      view.getUint16(at + 32, true)
  }
  return out
}
