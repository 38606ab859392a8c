import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { createMemoryArtifactStore } from '@tis/test-utils/memory-artifact-store'
import { zipSync } from 'fflate'
import { sha256Hex } from '../src/ids'
import { createProjectAccess } from '../src/management/access'
import type { ProjectRecord, UserRecord, WriteOp } from '../src/ports'
import { createSourceMapsApi } from '../src/sourcemaps/upload-api'
import type { SourceMapLimits } from '../src/sourcemaps/upload-limits'

// Test support of the upload API's unit tests: users behind `tis_user_<who>` tokens, one project,
// an in-memory store, and artifact bundles built as sentry-cli builds them (SYSB + zip whose
// offsets count the 8-byte header).

export const USERS: Record<string, UserRecord> = {
  owner: { id: 'u-owner', email: 'o@x.test', createdAt: new Date(0) },
  member: { id: 'u-member', email: 'm@x.test', createdAt: new Date(0) },
  stranger: { id: 'u-stranger', email: 's@x.test', createdAt: new Date(0) },
}
export const PROJECT: ProjectRecord = {
  id: '0190c6a0-0000-7000-8000-000000000001',
  name: 'web',
  integrationKind: 'javascript',
  status: 'active',
  ownerId: 'u-owner',
  createdAt: new Date(0),
  archivedAt: null,
  rateLimit: null,
  number: 42,
}
export const DEBUG_ID = 'f6252536-61a8-5fd0-8deb-93c12ba4ecc7'

export const sha1 = (b: Uint8Array | string) => createHash('sha1').update(b).digest('hex')

/** The upload API over an in-memory store, and helpers to call it as the clients do. */
export function setup(limits: Partial<SourceMapLimits> = {}) {
  const memory = createMemoryArtifactStore()
  const writes: WriteOp[] = []
  const access = createProjectAccess({
    store: {
      findUserByTokenDigest: async (digest) =>
        Object.entries(USERS).find(([who]) => sha256Hex(`tis_user_${who}`) === digest)?.[1] ?? null,
      findProject: async (id) => (id === PROJECT.id ? PROJECT : null),
      isMember: async (_p, user) => user === 'u-member',
    },
  })
  const api = createSourceMapsApi({
    store: {
      ...memory.store,
      findProject: async (id) => (id === PROJECT.id ? PROJECT : null),
      isMember: async (_p, u) => u === 'u-member',
      // What the caller sees: the owner, the member and (null) an administrator.
      listProjects: async (user: string | null) => (user === 'u-stranger' ? [] : [PROJECT]),
    },
    access,
    deployments: {
      append: async (ops) => {
        writes.push(...ops)
        return ops.map((op) => ({ id: op.id, legacyId: 1 }))
      },
    },
    limits,
    now: () => new Date('2026-12-01T10:00:00Z'),
  })
  const headers = (who: string | null, extra: Record<string, string> = {}) => ({
    ...(who ? { authorization: `Bearer tis_user_${who}` } : {}),
    host: 'tis.example:3000',
    ...extra,
  })
  const assemble = (who: string, body: unknown) =>
    api.assembleArtifactBundle({
      headers: headers(who),
      params: { org: 'any' },
      text: JSON.stringify(body),
    })
  const upload = async (
    who: string,
    parts: { name?: string; filename: string; bytes: Uint8Array }[],
  ) => {
    const form = new FormData()
    for (const p of parts)
      form.append(p.name ?? 'file_gzip', new Blob([p.bytes as Uint8Array<ArrayBuffer>]), p.filename)
    const request = new Request('http://x/', { method: 'POST', body: form })
    const bytes = new Uint8Array(await request.arrayBuffer())
    return api.uploadChunks({
      headers: headers(who, { 'content-type': request.headers.get('content-type') ?? '' }),
      params: { org: 'any' },
      bytes,
    })
  }
  /** Uploads `bundle` as one gzip chunk (as sentry-cli does) and assembles it. */
  const send = async (bundle: Uint8Array, extra: Record<string, unknown> = {}, who = 'owner') => {
    const checksum = sha1(bundle)
    const body = { checksum, chunks: [checksum], projects: [PROJECT.id], ...extra }
    const first = await assemble(who, body)
    if ((first.body as { state?: string }).state === 'not_found') {
      await upload(who, [{ filename: checksum, bytes: gzipSync(bundle) }])
      return assemble(who, body)
    }
    return first
  }
  return { api, memory, writes, headers, assemble, upload, send }
}

/** Shifts a zip's offsets by `by` bytes, as if `by` bytes came before it. */
function shiftZip(zip: Uint8Array, by: number): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength)
  const eocd = zip.byteLength - 22
  const entries = view.getUint16(eocd + 10, true)
  let at = view.getUint32(eocd + 16, true)
  view.setUint32(eocd + 16, at + by, true)
  for (let i = 0; i < entries; i++) {
    view.setUint32(at + 42, view.getUint32(at + 42, true) + by, true)
    at +=
      46 +
      view.getUint16(at + 28, true) +
      view.getUint16(at + 30, true) +
      view.getUint16(at + 32, true)
  }
  return zip
}

/** An artifact bundle: `SYSB` + u32 LE 2 + a zip whose offsets count the header. */
export function sysbBundle(entries: Record<string, string | Uint8Array>): Uint8Array {
  const files = Object.fromEntries(
    Object.entries(entries).map(([k, v]) => [
      k,
      typeof v === 'string' ? new TextEncoder().encode(v) : v,
    ]),
  )
  const zip = shiftZip(zipSync(files), 8)
  const out = new Uint8Array(8 + zip.byteLength)
  out.set(new TextEncoder().encode('SYSB'), 0)
  new DataView(out.buffer).setUint32(4, 2, true)
  out.set(zip, 8)
  return out
}

/** A bundle as sentry-cli 2 writes it: a minified file and its map, both with a debug ID. */
export function cliBundle(
  options: { debugId?: string | null; release?: string; prefix?: string } = {},
) {
  const id = options.debugId === undefined ? DEBUG_ID : options.debugId
  const prefix = options.prefix ?? 'files/_/_/'
  const headers = (extra: Record<string, string>) => (id ? { 'debug-id': id, ...extra } : extra)
  const manifest = {
    files: {
      [`${prefix}app.min.js`]: {
        url: '~/app.min.js',
        type: 'minified_source',
        headers: headers({ Sourcemap: 'app.min.js.map' }),
      },
      [`${prefix}app.min.js.map`]: {
        url: '~/app.min.js.map',
        type: 'source_map',
        headers: headers({}),
      },
    },
    ...(options.release ? { release: options.release } : {}),
    debug_id: '87167121-0000-4000-8000-000000000000',
  }
  return sysbBundle({
    'manifest.json': JSON.stringify(manifest),
    [`${prefix}app.min.js`]:
      'function o(n){throw new Error(n)}o(1);\n//# sourceMappingURL=app.min.js.map',
    [`${prefix}app.min.js.map`]: '{"version":3,"sources":["a.ts"],"names":[],"mappings":"AAAA"}',
  })
}
