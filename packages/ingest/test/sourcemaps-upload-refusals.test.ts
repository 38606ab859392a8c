import { gzipSync } from 'node:zlib'
import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { cliBundle, PROJECT, setup, sha1, sysbBundle } from './upload-kit'

// Every refusal of the upload API names the problem with a 4xx and stores nothing.

const text = (s: string) => new TextEncoder().encode(s)

describe('chunk refusals', () => {
  it('refuses a chunk whose content does not hash to its name, naming it; stores nothing', async () => {
    const { upload, memory } = setup()
    const wrong = 'a'.repeat(40)
    const res = await upload('owner', [{ filename: wrong, bytes: gzipSync(text('x')) }])
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({
      detail: `Chunk ${wrong} is corrupt: its content hashes to ${sha1('x')}.`,
    })
    expect(memory.chunks.size).toBe(0)
  })

  it('refuses invalid gzip, a filename that is no SHA-1, a non-multipart body, an empty form', async () => {
    const { upload, api, headers } = setup()
    const corrupt = await upload('owner', [{ filename: sha1('x'), bytes: text('not gzip') }])
    expect([corrupt.status, (corrupt.body as { detail: string }).detail]).toEqual([
      400,
      `Chunk ${sha1('x')} is not valid gzip.`,
    ])
    expect(
      (await upload('owner', [{ filename: 'chunk.bin', bytes: gzipSync(text('x')) }])).status,
    ).toBe(400)
    const json = await api.uploadChunks({
      headers: headers('owner', { 'content-type': 'application/json' }),
      bytes: text('{}'),
    })
    expect(json.status).toBe(400)
    expect((await upload('owner', [])).status).toBe(400)
  })

  it('answers 413 past the chunk size (raw and once inflated), and 401 without a token', async () => {
    const { upload } = setup({ chunkSize: 1024 })
    const big = new Uint8Array(2048).fill(65)
    expect(
      (await upload('owner', [{ name: 'file', filename: sha1(big), bytes: big }])).status,
    ).toBe(413)
    expect((await upload('owner', [{ filename: sha1(big), bytes: gzipSync(big) }])).status).toBe(
      413,
    )
    expect(
      (await upload('nobody', [{ filename: sha1('x'), bytes: gzipSync(text('x')) }])).status,
    ).toBe(401)
  })
})

describe('assemble refusals', () => {
  const cases: [string, Uint8Array, RegExp][] = [
    [
      'not a zip',
      text('hello, I am no zip'),
      /not an artifact bundle: it starts with neither SYSB nor a zip/,
    ],
    [
      'a zip without manifest.json',
      zipSync({ 'app.js': text('x') }),
      /no manifest\.json: it is not an artifact bundle/,
    ],
    [
      'a manifest naming an absent entry',
      sysbBundle({
        'manifest.json': '{"files":{"files/_/_/a.js":{"url":"~/a.js","type":"minified_source"}}}',
      }),
      /names files\/_\/_\/a\.js, which the zip does not hold/,
    ],
    [
      'a manifest that is not JSON',
      sysbBundle({ 'manifest.json': '{' }),
      /manifest\.json is not valid JSON/,
    ],
    ['a corrupt zip', sysbBundle({ 'manifest.json': '{}' }).subarray(0, 30), /not a valid zip/],
    ['no debug IDs and no release', cliBundle({ debugId: null }), /no debug IDs and no release/],
  ]
  it.each(cases)(
    'answers 400 state error for %s, storing nothing',
    async (_name, bundle, detail) => {
      const { send, memory } = setup()
      const res = await send(bundle)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({
        state: 'error',
        missingChunks: [],
        detail: expect.stringMatching(detail),
      })
      expect(memory.bundles.size).toBe(0)
    },
  )

  it('answers 400 for a checksum the chunks do not join to', async () => {
    const { assemble, upload, memory } = setup()
    const bundle = cliBundle()
    const chunk = sha1(bundle)
    await upload('owner', [{ filename: chunk, bytes: gzipSync(bundle) }])
    const res = await assemble('owner', {
      checksum: 'b'.repeat(40),
      chunks: [chunk],
      projects: [PROJECT.id],
    })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({
      state: 'error',
      detail: `Checksum mismatch: the chunks join to ${chunk}, not ${'b'.repeat(40)}.`,
    })
    expect(memory.bundles.size).toBe(0)
  })

  it('answers a bad body 400 {error}, and checks projects: unknown 400, not managed 403', async () => {
    const { assemble } = setup()
    const bad = await assemble('owner', { checksum: 'nope' })
    expect([bad.status, (bad.body as { error: string }).error]).toEqual([
      400,
      '"checksum" must be the SHA-1 (40 hex) of the bundle.',
    ])
    const body = (projects: string[]) => ({ checksum: 'a'.repeat(40), chunks: [], projects })
    expect((await assemble('owner', body(['0190c6a0-0000-7000-8000-00000000ffff']))).status).toBe(
      400,
    )
    expect((await assemble('owner', body(['web']))).status).toBe(400)
    // A member sees the project but may not upload; a stranger is told nothing about it.
    expect((await assemble('member', body([PROJECT.id]))).status).toBe(403)
    expect((await assemble('stranger', body([PROJECT.id]))).status).toBe(400)
    expect((await assemble('nobody', body([PROJECT.id]))).status).toBe(401)
  })

  it('answers 413 past the bundle size, the files per bundle and the project total', async () => {
    const bundle = cliBundle()
    const small = setup({ maxBundleBytes: 100 })
    expect((await small.send(bundle)).status).toBe(413)
    const few = setup({ maxFilesPerBundle: 1 })
    expect((await few.send(bundle)).body).toMatchObject({
      detail: 'The bundle holds more than 1 files.',
    })
    const full = setup({ maxProjectBytes: 100 })
    const res = await full.send(bundle)
    expect(res.status).toBe(413)
    expect(res.body).toMatchObject({
      detail: expect.stringContaining('would hold more than 100 bytes'),
    })
    expect(full.memory.bundles.size).toBe(0)
  })
})
