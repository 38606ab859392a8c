import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync, inflateRawSync } from 'node:zlib'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXIT, runCli } from './run'

const SENTRY_CLI = fileURLToPath(
  new URL('../../node_modules/sentry-cli-2/bin/sentry-cli', import.meta.url),
)
const PROJECT = '01a203af-ac77-79d4-9708-1fd9c9d94c22'
const ORIGIN = 'http://tis.test'
const sha1 = (b: Uint8Array) => createHash('sha1').update(b).digest('hex')

interface Seen {
  method: string
  path: string
  auth: string | undefined
  json?: Record<string, unknown>
  parts?: { name: string; filename: string; bytes: number }[]
}

/**
 * A stand-in for the tis upload API as the Sentry tooling sees it: chunk options, assemble
 * answering the real missing chunks (`not_found`), chunk uploads checked against their names.
 */
function fakeServer(
  options: { chunkSize?: number; chunksPerRequest?: number; assemble?: unknown } = {},
) {
  const seen: Seen[] = []
  const chunks = new Map<string, Uint8Array>()
  const bundles: Uint8Array[] = []
  const json = (body: unknown, status = 200) =>
    new Response(body === null ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    })
  const fetch = (async (url: string, init: RequestInit) => {
    const path = new URL(url).pathname
    const auth = (init.headers as Record<string, string>)['Authorization']
    const entry: Seen = { method: String(init.method), path, auth }
    seen.push(entry)
    if (path.endsWith('/chunk-upload/') && init.method === 'GET') {
      return json({
        url: `${ORIGIN}/api/0/organizations/tis/chunk-upload/`,
        chunkSize: options.chunkSize ?? 2_097_152,
        chunksPerRequest: options.chunksPerRequest ?? 1,
        maxRequestSize: 2_097_152,
        hashAlgorithm: 'sha1',
        concurrency: 4,
        compression: ['gzip'],
        accept: ['release_files', 'artifact_bundles', 'artifact_bundles_v2'],
      })
    }
    if (path.endsWith('/chunk-upload/')) {
      entry.parts = []
      for (const [name, value] of init.body as FormData) {
        const file = value as File
        const bytes = gunzipSync(new Uint8Array(await file.arrayBuffer()))
        if (sha1(bytes) !== file.name) return json({ detail: 'chunk hash mismatch' }, 400)
        chunks.set(file.name, bytes)
        entry.parts.push({ name, filename: file.name, bytes: bytes.length })
      }
      return new Response(null, { status: 200 })
    }
    if (path.endsWith('/artifactbundle/assemble/')) {
      const body = JSON.parse(String(init.body)) as { checksum: string; chunks: string[] }
      entry.json = body
      if (options.assemble) return json(options.assemble)
      const missing = [...new Set(body.chunks.filter((c) => !chunks.has(c)))]
      if (missing.length > 0) return json({ state: 'not_found', missingChunks: missing })
      const parts = body.chunks.map((c) => chunks.get(c)!)
      const bundle = new Uint8Array(Buffer.concat(parts))
      if (sha1(bundle) !== body.checksum)
        return json({ state: 'error', missingChunks: [], detail: 'checksum' })
      bundles.push(bundle)
      return json({ state: 'ok', missingChunks: [], detail: null })
    }
    if (path.endsWith('/artifact_bundles') && init.method === 'GET') {
      return json({ artifact_bundles: [LISTED] })
    }
    if (init.method === 'DELETE') return new Response(null, { status: 204 })
    return json({ detail: 'not found' }, 404)
  }) as typeof globalThis.fetch
  return { seen, bundles, fetch }
}

const LISTED = {
  id: '0199aaaa-0000-7000-8000-000000000001',
  bundle_debug_id: '87167121-0000-5000-8000-000000000000',
  release: '1.0.0',
  dist: null,
  file_count: 2,
  size: 1234,
  debug_ids: ['f6252536-61a8-5fd0-8deb-93c12ba4ecc7'],
  uploaded_at: '2026-12-01T10:00:00.000Z',
  last_used_at: '2026-12-01T11:00:00.000Z',
}

async function tis(argv: string[], server: ReturnType<typeof fakeServer>) {
  let stdout = ''
  let stderr = ''
  const code = await runCli(argv, {
    env: { TIS_TOKEN: 'tis_user_t', TIS_URL: ORIGIN },
    fetch: server.fetch,
    stdout: (t) => {
      stdout += t
    },
    stderr: (t) => {
      stderr += t
    },
  })
  return { code, stdout, stderr }
}

/** The entries of a bundle, read by its zip directory at the offsets it states (header counted). */
function manifestOf(bundle: Uint8Array) {
  const b = Buffer.from(bundle)
  expect(b.subarray(0, 8)).toEqual(Buffer.from([0x53, 0x59, 0x53, 0x42, 2, 0, 0, 0]))
  const end = b.length - 22
  const entries: Record<string, string> = {}
  let at = b.readUInt32LE(end + 16)
  for (let i = 0; i < b.readUInt16LE(end + 10); i++) {
    const [method, size, nameLength] = [
      b.readUInt16LE(at + 10),
      b.readUInt32LE(at + 20),
      b.readUInt16LE(at + 28),
    ]
    const name = b.toString('utf8', at + 46, at + 46 + nameLength)
    const local = b.readUInt32LE(at + 42)
    const data = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28)
    const raw = b.subarray(data, data + size)
    entries[name] = (method === 8 ? inflateRawSync(raw) : raw).toString('utf8')
    at += 46 + nameLength + b.readUInt16LE(at + 30) + b.readUInt16LE(at + 32)
  }
  return { entries, manifest: JSON.parse(entries['manifest.json']!) }
}

describe('tis sourcemaps upload', () => {
  let root: string
  let injected: string
  let debugId: string

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'tis-sourcemaps-cli-'))
    injected = join(root, 'injected')
    await build({
      stdin: {
        contents: "export function boom() { throw new Error('boom') }\nboom()",
        loader: 'js',
      },
      bundle: true,
      minify: true,
      sourcemap: true,
      format: 'esm',
      outfile: join(injected, 'js', 'app.min.js'),
      logLevel: 'silent',
    })
    execFileSync(SENTRY_CLI, ['sourcemaps', 'inject', injected], { stdio: 'pipe' })
    const js = readFileSync(join(injected, 'js', 'app.min.js'), 'utf8')
    debugId = /\/\/# debugId=(\S+)/.exec(js)![1]!
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it('uploads files injected by sentry-cli: pre-flight, missing chunks (gzip, named by SHA-1), assemble', async () => {
    const server = fakeServer({ chunkSize: 512, chunksPerRequest: 2 })
    const r = await tis(
      ['sourcemaps', 'upload', injected, '--project', PROJECT, '--url-prefix', '~/static/'],
      server,
    )
    expect(r.stderr).toBe('')
    expect(r.code).toBe(EXIT.ok)
    const paths = server.seen.map((s) => `${s.method} ${s.path}`)
    expect(paths[0]).toBe('GET /api/0/organizations/tis/chunk-upload/')
    expect(paths[1]).toBe('POST /api/0/organizations/tis/artifactbundle/assemble/')
    expect(paths.at(-1)).toBe('POST /api/0/organizations/tis/artifactbundle/assemble/')
    const posts = server.seen.filter((s) => s.parts)
    expect(posts.length).toBeGreaterThan(0)
    for (const post of posts) {
      expect(post.parts!.length).toBeLessThanOrEqual(2)
      for (const part of post.parts!)
        expect(part).toMatchObject({ name: 'file_gzip', bytes: expect.any(Number) })
    }
    for (const s of server.seen) expect(s.auth).toBe('Bearer tis_user_t')
    expect(server.seen[1]!.json).toMatchObject({ projects: [PROJECT] })
    expect(server.seen[1]!.json).not.toHaveProperty('version')

    const { entries, manifest } = manifestOf(server.bundles[0]!)
    expect(manifest.files['files/_/_/static/js/app.min.js']).toEqual({
      url: '~/static/js/app.min.js',
      type: 'minified_source',
      headers: { 'debug-id': debugId, sourcemap: 'app.min.js.map' },
    })
    expect(manifest.files['files/_/_/static/js/app.min.js.map']).toEqual({
      url: '~/static/js/app.min.js.map',
      type: 'source_map',
      headers: { 'debug-id': debugId },
    })
    expect(entries['files/_/_/static/js/app.min.js']).toBe(
      readFileSync(join(injected, 'js', 'app.min.js'), 'utf8'),
    )
    expect(r.stdout).toContain(
      `Uploaded 2 files to project ${PROJECT}: bundle ${manifest.debug_id}`,
    )
    expect(r.stdout).toMatch(
      new RegExp(`~/static/js/app.min.js\\s+minified_source\\s+${debugId}\\s+app.min.js.map`),
    )

    // The same upload again: the server has every chunk, so none is sent.
    const again = await tis(
      [
        'sourcemaps',
        'upload',
        injected,
        '--project',
        PROJECT,
        '--url-prefix',
        '~/static/',
        '--json',
      ],
      server,
    )
    expect(JSON.parse(again.stdout)).toMatchObject({
      chunks_sent: 0,
      bundle_debug_id: manifest.debug_id,
    })
  })

  it('refuses a directory without debug IDs unless --release is given, before any request', async () => {
    const plain = join(root, 'plain')
    mkdirSync(join(plain, 'assets'), { recursive: true })
    writeFileSync(join(plain, 'assets', 'main.js'), 'a()\n')
    writeFileSync(join(plain, 'assets', 'main.js.map'), '{"version":3,"sources":[],"mappings":""}')
    const server = fakeServer()
    const refused = await tis(['sourcemaps', 'upload', plain, '--project', PROJECT], server)
    expect(refused.code).toBe(EXIT.usage)
    expect(refused.stderr).toContain(
      `no debug IDs in ${plain}: run \`sentry-cli sourcemaps inject ${plain}\``,
    )
    expect(server.seen).toEqual([])

    const r = await tis(
      ['sourcemaps', 'upload', plain, '--project', PROJECT, '--release', '1.0.0', '--dist', 'web'],
      server,
    )
    expect(r.code).toBe(EXIT.ok)
    expect(server.seen[1]!.json).toMatchObject({ version: '1.0.0', dist: 'web' })
    const { manifest } = manifestOf(server.bundles[0]!)
    expect(manifest).toMatchObject({ release: '1.0.0', dist: 'web' })
    // Paired by name (no sourceMappingURL): the JS names its map in the header.
    expect(manifest.files['files/_/_/assets/main.js'].headers).toEqual({ sourcemap: 'main.js.map' })
  })

  it("takes a map's debugId (sentry-cli 3) for a file without the comment", async () => {
    const dir = join(root, 'v3')
    const id = '0c2e5d4b-7a1f-4e2b-9d3c-5b6a7e8f9a0b'
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'x.mjs'), 'x()\n//# sourceMappingURL=maps/x.mjs.map\n')
    mkdirSync(join(dir, 'maps'))
    writeFileSync(
      join(dir, 'maps', 'x.mjs.map'),
      JSON.stringify({ version: 3, debugId: id.toUpperCase() }),
    )
    const server = fakeServer()
    expect((await tis(['sourcemaps', 'upload', dir, '--project', PROJECT], server)).code).toBe(
      EXIT.ok,
    )
    const { manifest } = manifestOf(server.bundles[0]!)
    expect(manifest.files['files/_/_/x.mjs'].headers).toEqual({
      'debug-id': id,
      sourcemap: 'maps/x.mjs.map',
    })
    expect(manifest.files['files/_/_/maps/x.mjs.map'].headers).toEqual({ 'debug-id': id })
  })

  it('prints the server’s detail when it refuses the bundle (exit 1), and needs --project', async () => {
    const server = fakeServer({
      assemble: { state: 'error', missingChunks: [], detail: 'bundle is not a zip' },
    })
    const r = await tis(['sourcemaps', 'upload', injected, '--project', PROJECT], server)
    expect(r).toMatchObject({
      code: EXIT.api,
      stderr: 'tis: the server refused the bundle: bundle is not a zip\n',
    })
    const usage = await tis(['sourcemaps', 'upload', injected], server)
    expect(usage.code).toBe(EXIT.usage)
    expect(usage.stderr).toContain('sourcemaps upload needs --project <project_id>')
    const empty = join(root, 'empty')
    mkdirSync(empty)
    expect(
      (await tis(['sourcemaps', 'upload', empty, '--project', PROJECT], server)).stderr,
    ).toContain(`no .js, .mjs, .cjs or .map files in ${empty}`)
  })
})

describe('tis sourcemaps list and delete', () => {
  it('lists bundles and deletes one', async () => {
    const server = fakeServer()
    const listed = await tis(['sourcemaps', 'list', '--project', PROJECT], server)
    expect(listed.code).toBe(EXIT.ok)
    expect(listed.stdout).toMatch(
      new RegExp(`^${LISTED.id}\\s+1.0.0\\s+-\\s+2\\s+1234\\s+${LISTED.debug_ids[0]}`, 'm'),
    )
    const deleted = await tis(['sourcemaps', 'delete', LISTED.id, '--project', PROJECT], server)
    expect(deleted).toMatchObject({
      code: EXIT.ok,
      stdout: `Deleted source map bundle ${LISTED.id}.\n`,
    })
    expect(server.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      `GET /api/v1/projects/${PROJECT}/artifact_bundles`,
      `DELETE /api/v1/projects/${PROJECT}/artifact_bundles/${LISTED.id}`,
    ])
  })
})
