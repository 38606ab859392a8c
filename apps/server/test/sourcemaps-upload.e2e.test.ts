import { createHash } from 'node:crypto'
import { request } from 'node:http'
import { join } from 'node:path'
import { ADMIN_TOKEN, call, createClient } from '@tis/test-utils/server'
import { startTisServer, type TisServer } from '@tis/test-utils/tis-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildApp,
  buildWithPlugin,
  injectedDebugId,
  pluginDebugId,
  sentryCli,
  storedZip,
} from './support/sourcemaps-clients'

// Sentry's real upload clients against a real tis server (issue 31): sentry-cli 2.58.6 and
// 3.8.0 (`info`, `sourcemaps inject` + `upload`, the `--release` upload of files without debug
// IDs, releases and deploys). What counts is the server's state, read through tis's own API:
// the plugins and the CLI both report success in cases where nothing was stored.

interface Bundle {
  id: string
  release: string | null
  dist: string | null
  file_count: number
  debug_ids: string[]
}

let server: TisServer
// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
const jsonOf = async (r: Response): Promise<any> => r.json()
let projectId: string
// Through the harness client, which checks every answer against the OpenAPI document.
const read = async (path: string) => {
  const reply = await call(server.url, 'GET', `/api/v1/projects/${projectId}${path}`, {
    token: ADMIN_TOKEN,
  })
  expect(reply.status).toBe(200)
  return reply.body
}
const bundles = async (): Promise<Bundle[]> => (await read('/artifact_bundles')).artifact_bundles
const files = async (bundle: string) =>
  (await read(`/artifact_bundles/${bundle}`)).files as {
    url: string
    type: string
    debug_id: string | null
  }[]

beforeAll(async () => {
  server = await startTisServer({ adminToken: ADMIN_TOKEN })
  projectId = (await createClient(server.url).createProject(ADMIN_TOKEN, 'javascript')).id
}, 90_000)
afterAll(() => server?.stop())

describe.each([2, 3] as const)('sentry-cli %i', (version) => {
  const project = () => ['--org', 'any-org', '--project', projectId]

  it('`info` accepts a tis user token and refuses a wrong one', async () => {
    const ok = await sentryCli(version, server.url, ADMIN_TOKEN, ['info'])
    expect(ok.out).toContain(server.url)
    expect(ok.code).toBe(0)
    const bad = await sentryCli(version, server.url, 'tis_user_wrong', ['info'])
    expect(bad.code).not.toBe(0)
    expect((await fetch(`${server.url}/api/0/`)).status).toBe(401)
  }, 60_000)

  it('`sourcemaps inject` + `upload`: the bundle and both files with their debug ID', async () => {
    const dist = await buildApp(`cli${version}`)
    const inject = await sentryCli(version, server.url, null, ['sourcemaps', 'inject', dist])
    expect(inject.code, inject.out).toBe(0)
    const debugId = await injectedDebugId(join(dist, 'app.min.js'))
    expect(debugId).toMatch(/^[0-9a-f-]{36}$/)
    const run = await sentryCli(version, server.url, ADMIN_TOKEN, [
      'sourcemaps',
      'upload',
      ...project(),
      dist,
    ])
    expect(run.code, run.out).toBe(0)
    const bundle = (await bundles()).find((b) => b.debug_ids.includes(debugId ?? ''))
    expect(bundle, run.out).toMatchObject({ release: null, file_count: 2 })
    expect((await files(bundle?.id ?? '')).map((f) => [f.url, f.type, f.debug_id])).toEqual([
      ['~/app.min.js', 'minified_source', debugId],
      ['~/app.min.js.map', 'source_map', debugId],
    ])
  }, 60_000)

  it("accepts the project's number (its DSN's) as --project", async () => {
    const { project } = await server.read(`/api/v1/projects/${projectId}`)
    const dist = await buildApp(`number${version}`)
    const release = `number-${version}`
    const run = await sentryCli(version, server.url, ADMIN_TOKEN, [
      'sourcemaps',
      'upload',
      '--org',
      'any-org',
      '--project',
      String(project.number),
      '--release',
      release,
      dist,
    ])
    expect(run.code, run.out).toBe(0)
    expect((await bundles()).map((b) => b.release)).toContain(release)
  }, 60_000)

  it('`sourcemaps upload --release` of files without debug IDs: found by release and URL', async () => {
    const dist = await buildApp(`legacy${version}`)
    const release = `legacy-${version}.0.0`
    const run = await sentryCli(version, server.url, ADMIN_TOKEN, [
      'sourcemaps',
      'upload',
      ...project(),
      '--release',
      release,
      '--dist',
      'web',
      '--url-prefix',
      '~/static/js',
      dist,
    ])
    expect(run.code, run.out).toBe(0)
    const bundle = (await bundles()).find((b) => b.release === release)
    expect(bundle, run.out).toMatchObject({ dist: 'web', file_count: 2, debug_ids: [] })
    expect((await files(bundle?.id ?? '')).map((f) => f.url).sort()).toEqual([
      '~/static/js/app.min.js',
      '~/static/js/app.min.js.map',
    ])
  }, 60_000)

  it('`releases new` / `finalize` and a deploy: a tis deployment of the release', async () => {
    const release = `rel-${version}-${Date.now()}`
    const env = `staging-${version}`
    for (const args of [
      ['releases', 'new', release, ...project()],
      ['releases', 'finalize', release, ...project()],
      version === 2
        ? ['releases', 'deploys', release, 'new', '-e', env, ...project()]
        : ['deploys', 'new', '--release', release, '-e', env, ...project()],
    ]) {
      const run = await sentryCli(version, server.url, ADMIN_TOKEN, args)
      expect(run.code, `${args.join(' ')}\n${run.out}`).toBe(0)
    }
    const { deployments } = await server.read(`/api/v1/projects/${projectId}/deployments`)
    expect(deployments).toContainEqual(
      expect.objectContaining({ release, environment: env, repository: 'unknown/unknown' }),
    )
  }, 90_000)
})

describe('@sentry/bundler-plugins 11 (esbuild; the pure-JS uploader of `sentry`)', () => {
  it('uploads the build with its debug IDs, creating the release', async () => {
    const release = `plugin-${Date.now()}`
    const { dist, errors } = await buildWithPlugin({
      url: server.url,
      authToken: ADMIN_TOKEN,
      project: projectId,
      release,
      variant: 'plugin',
    })
    expect(errors).toEqual([])
    const debugId = await pluginDebugId(join(dist, 'src.js'))
    expect(debugId).toMatch(/^[0-9a-f-]{36}$/)
    const bundle = (await bundles()).find((b) => b.debug_ids.includes(debugId ?? ''))
    expect(bundle).toMatchObject({ release, file_count: 2 })
    const types = (await files(bundle?.id ?? '')).map((f) => [f.type, f.debug_id])
    expect(types.sort()).toEqual([
      ['minified_source', debugId],
      ['source_map', debugId],
    ])
  }, 90_000)
})

describe('bad input: a clear 4xx naming the problem, nothing stored', () => {
  const org = () => `${server.url}/api/0/organizations/any-org`
  const sha1 = (b: Uint8Array | string) => createHash('sha1').update(b).digest('hex')
  const chunkPost = (
    parts: { name: string; filename: string; bytes: Uint8Array }[],
    token = ADMIN_TOKEN,
  ) => {
    const form = new FormData()
    for (const p of parts)
      form.append(p.name, new Blob([p.bytes as Uint8Array<ArrayBuffer>]), p.filename)
    return fetch(`${org()}/chunk-upload/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    })
  }
  const assemble = (body: unknown, token = ADMIN_TOKEN) =>
    fetch(`${org()}/artifactbundle/assemble/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
  const missing = async (sha: string) =>
    (await jsonOf(await assemble({ checksum: sha, chunks: [sha], projects: [projectId] })))
      .missingChunks

  it('refuses a missing or wrong token with 401, on every upload endpoint', async () => {
    for (const token of ['', 'tis_user_wrong']) {
      const headers = token ? { Authorization: `Bearer ${token}` } : undefined
      for (const [method, path] of [
        ['GET', '/api/0/'],
        ['GET', '/api/0/organizations/x/chunk-upload/'],
        ['POST', '/api/0/organizations/x/artifactbundle/assemble/'],
        ['POST', '/api/0/organizations/x/releases/'],
      ] as const) {
        const res = await fetch(`${server.url}${path}`, { method, ...(headers ? { headers } : {}) })
        expect([path, res.status]).toEqual([path, 401])
        expect((await jsonOf(res)).detail).toContain('tis user access token')
      }
    }
    // Never 401 for an organization (the JS uploader would stop).
    expect((await fetch(`${server.url}/api/0/organizations/any-org/`)).status).toBe(404)
  })

  it('advertises the chunk URL on the origin the client used, behind a proxy too', async () => {
    const options = async (headers: Record<string, string>) =>
      (
        await jsonOf(
          await fetch(`${org()}/chunk-upload/`, {
            headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, ...headers },
          }),
        )
      ).url
    expect(await options({})).toBe(`${server.url}/api/0/organizations/any-org/chunk-upload/`)
    const proxied = { 'X-Forwarded-Host': 'errors.shop.example', 'X-Forwarded-Proto': 'https' }
    expect(await options(proxied)).toBe(
      'https://errors.shop.example/api/0/organizations/any-org/chunk-upload/',
    )
  })

  it('refuses a user who may not manage the project with 403 (sentry-cli fails, nothing stored)', async () => {
    const client = createClient(server.url)
    const member = await client.createUser()
    await client.api('POST', `/api/v1/projects/${projectId}/members`, {
      token: ADMIN_TOKEN,
      json: { member: { email: member.email } },
    })
    const before = (await bundles()).length
    const dist = await buildApp('member')
    await sentryCli(2, server.url, null, ['sourcemaps', 'inject', dist])
    const run = await sentryCli(2, server.url, member.token, [
      'sourcemaps',
      'upload',
      '--org',
      'any-org',
      '--project',
      projectId,
      dist,
    ])
    expect(run.code).not.toBe(0)
    expect(run.out).toContain('only its owner or an administrator may')
    const res = await assemble(
      { checksum: sha1('x'), chunks: [], projects: [projectId] },
      member.token,
    )
    expect(res.status).toBe(403)
    expect((await bundles()).length).toBe(before)
  }, 60_000)

  it('refuses a corrupt chunk and a chunk whose hash does not match, naming it', async () => {
    const content = new TextEncoder().encode('a chunk')
    const real = sha1(content)
    const corrupt = await chunkPost([{ name: 'file_gzip', filename: real, bytes: content }])
    expect([corrupt.status, (await jsonOf(corrupt)).detail]).toEqual([
      400,
      `Chunk ${real} is not valid gzip.`,
    ])
    const wrong = 'c'.repeat(40)
    const mismatch = await chunkPost([{ name: 'file', filename: wrong, bytes: content }])
    expect([mismatch.status, (await jsonOf(mismatch)).detail]).toEqual([
      400,
      `Chunk ${wrong} is corrupt: its content hashes to ${real}.`,
    ])
    expect(await missing(real)).toEqual([real])
    expect(await missing(wrong)).toEqual([wrong])
  })

  it('refuses a zip that is not a bundle, bytes that are no zip and a wrong checksum (400)', async () => {
    const before = (await bundles()).length
    const cases: [Uint8Array, string, string][] = [
      [
        storedZip({ 'app.js': 'x' }),
        '',
        'The zip has no manifest.json: it is not an artifact bundle.',
      ],
      [
        new TextEncoder().encode('not a zip at all'),
        '',
        'The upload is not an artifact bundle: it starts with neither SYSB nor a zip.',
      ],
      [storedZip({ 'other.js': 'y' }), 'd'.repeat(40), 'Checksum mismatch'],
    ]
    for (const [bytes, checksum, detail] of cases) {
      const sha = sha1(bytes)
      expect((await chunkPost([{ name: 'file', filename: sha, bytes }])).status).toBe(200)
      const res = await assemble({
        checksum: checksum || sha,
        chunks: [sha],
        projects: [projectId],
      })
      expect(res.status).toBe(400)
      const body = await jsonOf(res)
      expect(body).toMatchObject({ state: 'error', missingChunks: [] })
      expect(body.detail).toContain(detail)
    }
    expect((await bundles()).length).toBe(before)
  })

  it('answers 413 past the chunk size and past the chunk request cap', async () => {
    const big = new Uint8Array(2 * 1024 * 1024 + 1).fill(97)
    const over = await chunkPost([{ name: 'file', filename: sha1(big), bytes: big }])
    expect(over.status).toBe(413)
    expect((await jsonOf(over)).detail).toContain('larger than the chunk size (2097152 bytes)')
    // Past chunk size + 64 KiB the server answers before reading the body, and closes.
    const huge = new Uint8Array(2 * 1024 * 1024 + 70 * 1024).fill(98)
    const status = await new Promise<number>((done, fail) => {
      const req = request(`${org()}/chunk-upload/`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${ADMIN_TOKEN}`,
          'Content-Type': 'multipart/form-data; boundary=x',
          'Content-Length': String(huge.length),
        },
      })
      req.on('response', (res) => done(res.statusCode ?? 0))
      req.on('error', (e) => ((e as { code?: string }).code === 'EPIPE' ? undefined : fail(e)))
      req.end(huge)
    })
    expect(status).toBe(413)
    expect(await missing(sha1(big))).toEqual([sha1(big)])
  })
})
