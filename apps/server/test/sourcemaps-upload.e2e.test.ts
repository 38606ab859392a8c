import { join } from 'node:path'
import { ADMIN_TOKEN, createClient } from '@tis/test-utils/server'
import { startTisServer, type TisServer } from '@tis/test-utils/tis-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, injectedDebugId, sentryCli } from './support/sourcemaps-clients'

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
let projectId: string
const bundles = async (): Promise<Bundle[]> =>
  (await server.read(`/api/v1/projects/${projectId}/artifact_bundles`)).artifact_bundles
const files = async (bundle: string) =>
  (await server.read(`/api/v1/projects/${projectId}/artifact_bundles/${bundle}`)).files as {
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
