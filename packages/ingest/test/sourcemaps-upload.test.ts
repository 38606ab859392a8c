import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { cliBundle, DEBUG_ID, PROJECT, setup, sha1 } from './upload-kit'

// The upload API Sentry's tooling speaks (design note §2, §7), over an in-memory store: each
// rule of the protocol and each refusal, with what is stored after it.

describe('GET /api/0/ and the organization', () => {
  it('answers a valid token with the org:ci scope, and 401 {detail} otherwise', async () => {
    const { api, headers } = setup()
    expect((await api.apiRoot({ headers: headers('owner') })).body).toEqual({
      auth: { scopes: ['org:ci'] },
      user: null,
    })
    for (const h of [headers(null), { authorization: 'Bearer tis_user_nobody' }]) {
      const res = await api.apiRoot({ headers: h })
      expect(res.status).toBe(401)
      expect(res.body).toMatchObject({ detail: expect.stringContaining('tis user access token') })
    }
  })

  it('answers any organization 404, never 401', async () => {
    const { api, headers } = setup()
    expect((await api.organization({ headers: headers(null), params: { org: 'x' } })).status).toBe(
      404,
    )
  })
})

describe('chunk-upload options', () => {
  it('advertises an absolute URL on the origin the client used and the protocol values', async () => {
    const { api, headers } = setup()
    const res = await api.chunkUploadOptions({ headers: headers('owner'), params: { org: 'acme' } })
    expect(res.body).toEqual({
      url: 'http://tis.example:3000/api/0/organizations/acme/chunk-upload/',
      chunkSize: 2_097_152,
      chunksPerRequest: 1,
      maxRequestSize: 2_097_152,
      concurrency: 4,
      hashAlgorithm: 'sha1',
      compression: ['gzip'],
      accept: ['release_files', 'artifact_bundles', 'artifact_bundles_v2'],
    })
    const proxied = await api.chunkUploadOptions({
      headers: headers('owner', {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'errors.shop.example',
      }),
      params: { org: 'acme' },
    })
    expect((proxied.body as { url: string }).url).toBe(
      'https://errors.shop.example/api/0/organizations/acme/chunk-upload/',
    )
  })
})

describe('upload and assemble', () => {
  it('pre-flights with the real missing chunks, then stores the bundle with its debug IDs', async () => {
    const { assemble, upload, memory } = setup()
    const bundle = cliBundle()
    const checksum = sha1(bundle)
    const body = {
      checksum,
      chunks: [checksum],
      projects: [PROJECT.id],
      version: '1.0.0',
      dist: 'web',
    }
    expect((await assemble('owner', body)).body).toEqual({
      state: 'not_found',
      missingChunks: [checksum],
      detail: null,
    })
    expect((await upload('owner', [{ filename: checksum, bytes: gzipSync(bundle) }])).status).toBe(
      200,
    )
    expect((await assemble('owner', body)).body).toEqual({
      state: 'ok',
      missingChunks: [],
      detail: null,
    })
    const [stored] = [...memory.bundles.values()]
    expect(stored).toMatchObject({
      release: '1.0.0',
      dist: 'web',
      fileCount: 2,
      debugIds: [DEBUG_ID],
    })
    expect(stored?.bundleDebugId).toBe('87167121-0000-4000-8000-000000000000')
    const files = memory.files.get(stored?.id ?? '') ?? []
    expect(files.map((f) => [f.url, f.type, f.debugId])).toEqual([
      ['~/app.min.js', 'minified_source', DEBUG_ID],
      ['~/app.min.js.map', 'source_map', DEBUG_ID],
    ])
    // Header names lower-cased (the JS uploader writes `Sourcemap`).
    expect(files[0]?.headers).toEqual({ 'debug-id': DEBUG_ID, sourcemap: 'app.min.js.map' })
    // Assembling the same bundle again: ok, stored once.
    expect((await assemble('owner', body)).body).toMatchObject({ state: 'ok' })
    expect(memory.bundles.size).toBe(1)
  })

  it('joins several chunks in order and reads entries without the files/ prefix (JS uploader)', async () => {
    const { assemble, upload, memory } = setup()
    const bundle = cliBundle({ prefix: '' })
    const half = Math.floor(bundle.byteLength / 2)
    const parts = [bundle.subarray(0, half), bundle.subarray(half)]
    const chunks = parts.map(sha1)
    const body = { checksum: sha1(bundle), chunks, projects: [PROJECT.id], version: 'undefined' }
    expect((await assemble('owner', body)).body).toMatchObject({ missingChunks: chunks })
    await upload('owner', [
      { name: 'file', filename: chunks[1] ?? '', bytes: parts[1] ?? new Uint8Array() },
    ])
    expect((await assemble('owner', body)).body).toMatchObject({
      state: 'not_found',
      missingChunks: [chunks[0]],
    })
    await upload('owner', [
      { name: 'file', filename: chunks[0] ?? '', bytes: parts[0] ?? new Uint8Array() },
    ])
    expect((await assemble('owner', body)).body).toMatchObject({ state: 'ok' })
    // `version: "undefined"` (the plugins without a release) is no release.
    expect([...memory.bundles.values()][0]?.release).toBeNull()
  })

  it("accepts the project's number as --project", async () => {
    const { send, memory } = setup()
    expect((await send(cliBundle(), { projects: ['42'] })).body).toMatchObject({ state: 'ok' })
    expect([...memory.bundles.values()][0]?.projectId).toBe(PROJECT.id)
    const { assemble } = setup()
    const unknown = await assemble('owner', {
      checksum: 'a'.repeat(40),
      chunks: [],
      projects: ['43'],
    })
    expect(unknown.status).toBe(400)
  })

  it("scopes chunks to the token's user", async () => {
    const { assemble, upload } = setup()
    const bundle = cliBundle()
    const checksum = sha1(bundle)
    await upload('member', [{ filename: checksum, bytes: gzipSync(bundle) }])
    const body = { checksum, chunks: [checksum], projects: [PROJECT.id] }
    expect((await assemble('owner', body)).body).toMatchObject({
      state: 'not_found',
      missingChunks: [checksum],
    })
  })

  it('takes the manifest release when the request has none; the request version wins', async () => {
    const first = setup()
    await first.send(cliBundle({ release: 'from-manifest' }))
    expect([...first.memory.bundles.values()][0]?.release).toBe('from-manifest')
    const second = setup()
    await second.send(cliBundle({ release: 'from-manifest' }), { version: 'from-request' })
    expect([...second.memory.bundles.values()][0]?.release).toBe('from-request')
  })
})
