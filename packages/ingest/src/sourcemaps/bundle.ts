import { unzipSync } from 'fflate'
import type { ArtifactFile, ArtifactFileType } from '../ports'
import { sha1Hex } from './upload-chunks'

// An artifact bundle as Sentry's tooling builds it (design note §2.7): 8 bytes `SYSB` + a u32
// LE version, then a zip whose offsets count those 8 bytes, so fflate reads it as it is. Entry
// names come from `manifest.json` (the JS uploader drops the `files/` prefix the Rust CLI uses).

/** A file of a parsed bundle, with its bytes. */
export type BundleFile = ArtifactFile & { readonly content: Uint8Array }

/** What a bundle's manifest and entries hold. */
export interface ParsedBundle {
  /** The manifest's `debug_id` (lower case), if it has a valid one. */
  readonly debugId: string | null
  readonly release: string | null
  readonly dist: string | null
  readonly files: readonly BundleFile[]
}

/** Why a bundle was refused: 400 for what is not a bundle, 413 past a cap. */
export interface BundleRefusal {
  readonly status: 400 | 413
  readonly detail: string
}

const TYPES: ReadonlySet<string> = new Set<ArtifactFileType>([
  'minified_source',
  'source_map',
  'source',
  'indexed_ram_bundle',
])
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** A debug ID as stored: lower case, dashed; `null` when absent or not a UUID. */
export function normalDebugId(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const id = value.trim().toLowerCase()
  if (UUID.test(id)) return id
  const hex = id.replace(/-/g, '')
  // Sentry's debug IDs may carry an appendix (`<uuid>-<age>`); JavaScript ones never do.
  return /^[0-9a-f]{32}$/.test(hex)
    ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
    : null
}

const refuse = (detail: string, status: 400 | 413 = 400): BundleRefusal => ({ status, detail })
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null)

/** Unzips a bundle within the caps, or the refusal. */
function unzip(
  bytes: Uint8Array,
  caps: { readonly maxUnpackedBytes: number; readonly maxFilesPerBundle: number },
): { readonly zip: Record<string, Uint8Array> } | BundleRefusal {
  const magic = String.fromCharCode(...bytes.subarray(0, 4))
  if (magic !== 'SYSB' && magic !== 'PK\u0003\u0004') {
    return refuse('The upload is not an artifact bundle: it starts with neither SYSB nor a zip.')
  }
  let count = 0
  let unpacked = 0
  try {
    const entries = unzipSync(bytes, {
      filter: (file) => {
        count += 1
        unpacked += file.originalSize
        return count <= caps.maxFilesPerBundle + 1 && unpacked <= caps.maxUnpackedBytes
      },
    })
    // The manifest is one entry more than the files.
    if (count > caps.maxFilesPerBundle + 1) {
      return refuse(`The bundle holds more than ${caps.maxFilesPerBundle} files.`, 413)
    }
    if (unpacked > caps.maxUnpackedBytes) {
      return refuse(`The bundle unpacks to more than ${caps.maxUnpackedBytes} bytes.`, 413)
    }
    return { zip: entries }
  } catch (error) {
    return refuse(`The artifact bundle is not a valid zip (${(error as Error).message}).`)
  }
}

/** Reads one manifest entry into a file, or the refusal naming it. */
function manifestFile(
  entry: string,
  info: unknown,
  content: Uint8Array | undefined,
): BundleFile | BundleRefusal {
  if (!isRecord(info)) return refuse(`manifest.json: files["${entry}"] is not an object.`)
  const url = text(info['url'])
  if (!url) return refuse(`manifest.json: files["${entry}"] has no url.`)
  const type = String(info['type'] ?? '')
  if (!TYPES.has(type)) return refuse(`manifest.json: ${url} has an unknown type "${type}".`)
  if (!content) return refuse(`manifest.json names ${entry}, which the zip does not hold.`)
  const headers: Record<string, string> = {}
  // Header names are case-insensitive: the JS uploader writes `Sourcemap`, the CLI `sourcemap`.
  if (isRecord(info['headers'])) {
    for (const [name, value] of Object.entries(info['headers'])) {
      if (typeof value === 'string') headers[name.toLowerCase()] = value
    }
  }
  const sent = headers['debug-id'] ?? headers['debug_id']
  const debugId = normalDebugId(sent)
  if (sent !== undefined && !debugId) {
    return refuse(`manifest.json: ${url} has an invalid debug-id "${sent}".`)
  }
  const file = { url, type: type as ArtifactFileType, debugId, headers }
  return { ...file, sha1: sha1Hex(content), size: content.byteLength, content }
}

/** Parses an artifact bundle (any `SYSB` version, or a bare zip), or the refusal. */
export function parseArtifactBundle(
  bytes: Uint8Array,
  caps: { readonly maxUnpackedBytes: number; readonly maxFilesPerBundle: number },
): ParsedBundle | BundleRefusal {
  const unzipped = unzip(bytes, caps)
  if ('detail' in unzipped) return unzipped
  const { zip } = unzipped
  const raw = zip['manifest.json']
  if (!raw) return refuse('The zip has no manifest.json: it is not an artifact bundle.')
  let manifest: unknown
  try {
    manifest = JSON.parse(new TextDecoder().decode(raw))
  } catch {
    return refuse('manifest.json is not valid JSON.')
  }
  if (!isRecord(manifest) || !isRecord(manifest['files'])) {
    return refuse('manifest.json has no "files" object: it is not an artifact bundle.')
  }
  const files: BundleFile[] = []
  for (const [entry, info] of Object.entries(manifest['files'])) {
    const file = manifestFile(entry, info, zip[entry])
    if ('detail' in file) return file
    files.push(file)
  }
  if (files.length > caps.maxFilesPerBundle) {
    return refuse(`The bundle holds more than ${caps.maxFilesPerBundle} files.`, 413)
  }
  const release = text(manifest['release'])
  return {
    debugId: normalDebugId(manifest['debug_id']),
    release: release === 'undefined' ? null : release,
    dist: text(manifest['dist']),
    files,
  }
}
