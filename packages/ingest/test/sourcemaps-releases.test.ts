import { describe, expect, it } from 'vitest'
import { cliBundle, DEBUG_ID, PROJECT, setup } from './upload-kit'

// The release calls of sentry-cli and the plugins, Sentry deploys as tis deployments, and the
// project's bundle list.

describe('releases and deploys', () => {
  it('creates releases idempotently on both paths and finalizes them', async () => {
    const { api, headers } = setup()
    const create = (params: Record<string, string>) =>
      api.createRelease({
        headers: headers('owner'),
        params,
        text: JSON.stringify({ version: '1.2.3', projects: [PROJECT.id] }),
      })
    for (const params of [{ org: 'any', project: PROJECT.id }, { org: 'any' }, { org: 'any' }]) {
      const res = await create(params)
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({
        version: '1.2.3',
        dateCreated: '2026-12-01T10:00:00.000Z',
        projects: [],
      })
    }
    const put = await api.updateRelease({
      headers: headers('owner'),
      params: { org: 'any', version: '1.2.3' },
      text: '{"dateReleased":"2026-12-01T11:00:00Z"}',
    })
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ version: '1.2.3', dateReleased: '2026-12-01T11:00:00Z' })
    const bad = await api.createRelease({
      headers: headers('owner'),
      params: { org: 'any' },
      text: '{}',
    })
    expect(bad.status).toBe(400)
    const member = await api.createRelease({
      headers: headers('member'),
      params: { org: 'any', project: PROJECT.id },
      text: '{"version":"1"}',
    })
    expect(member.status).toBe(403)
    expect((await api.emptyList({ headers: headers('owner') })).body).toEqual([])
    expect((await api.emptyList({ headers: headers(null) })).status).toBe(401)
  })

  it('records a deploy as a tis deployment: no repository known, the release as commit when it is a sha', async () => {
    const { api, headers, writes } = setup()
    const deploy = (version: string, body: unknown) =>
      api.createDeploy({
        headers: headers('owner'),
        params: { org: 'any', version },
        text: JSON.stringify(body),
      })
    const res = await deploy('2.0.0', {
      environment: 'staging',
      name: 'deploy 7',
      url: 'https://ci.example/7',
      projects: [PROJECT.id],
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      environment: 'staging',
      name: 'deploy 7',
      dateFinished: '2026-12-01T10:00:00.000Z',
    })
    await deploy('9fceb02d0ae598e95dc970b74767f19372d61af8', {
      environment: 'production',
      dateFinished: '2026-12-01T09:00:00Z',
      projects: [PROJECT.id],
    })
    expect(
      writes.map(
        (w) =>
          w.type === 'deployment' && [
            w.projectId,
            w.upsert.repository,
            w.upsert.release,
            w.upsert.environment,
            w.upsert.commitSha,
          ],
      ),
    ).toEqual([
      [PROJECT.id, 'unknown/unknown', '2.0.0', 'staging', '0'.repeat(40)],
      [
        PROJECT.id,
        'unknown/unknown',
        '9fceb02d0ae598e95dc970b74767f19372d61af8',
        'production',
        '9fceb02d0ae598e95dc970b74767f19372d61af8',
      ],
    ])
    const w = writes[0]
    expect(w?.type === 'deployment' && w.deployment.deployment_url).toBe('https://ci.example/7')
    expect(
      w?.type === 'deployment' &&
        writes[1]?.type === 'deployment' &&
        writes[1].upsert.deployedAt.toISOString(),
    ).toBe('2026-12-01T09:00:00.000Z')
    // No environment, no project, a member: refused, nothing recorded.
    expect((await deploy('2.0.0', { projects: [PROJECT.id] })).status).toBe(400)
    expect((await deploy('2.0.0', { environment: 'x' })).status).toBe(400)
    const member = await api.createDeploy({
      headers: headers('member'),
      params: { org: 'any', version: '2' },
      text: JSON.stringify({ environment: 'x', projects: [PROJECT.id] }),
    })
    expect(member.status).toBe(403)
    expect(writes).toHaveLength(2)
  })
})

describe('the bundle list', () => {
  it('lists, shows and deletes bundles; members see, owners delete', async () => {
    const { api, send, headers } = setup()
    await send(cliBundle(), { version: '1.0.0' })
    const params = { id: PROJECT.id }
    const list = await api.listArtifactBundles({ headers: headers('member'), params })
    const [bundle] = (list.body as { artifact_bundles: { id: string }[] }).artifact_bundles
    expect(bundle).toMatchObject({
      release: '1.0.0',
      dist: null,
      file_count: 2,
      debug_ids: [DEBUG_ID],
      uploaded_at: '2026-12-01T10:00:00.000Z',
    })
    const one = await api.getArtifactBundle({
      headers: headers('member'),
      params: { ...params, bundle_id: bundle?.id ?? '' },
    })
    expect((one.body as { files: unknown[] }).files).toEqual([
      {
        url: '~/app.min.js',
        type: 'minified_source',
        debug_id: DEBUG_ID,
        size: expect.any(Number),
        sha1: expect.stringMatching(/^[0-9a-f]{40}$/),
      },
      {
        url: '~/app.min.js.map',
        type: 'source_map',
        debug_id: DEBUG_ID,
        size: expect.any(Number),
        sha1: expect.stringMatching(/^[0-9a-f]{40}$/),
      },
    ])
    const del = (who: string) =>
      api.deleteArtifactBundle({
        headers: headers(who),
        params: { ...params, bundle_id: bundle?.id ?? '' },
      })
    expect((await del('member')).status).toBe(403)
    expect((await del('owner')).status).toBe(204)
    expect((await del('owner')).status).toBe(404)
    expect((await api.listArtifactBundles({ headers: headers('stranger'), params })).status).toBe(
      404,
    )
    expect(
      (await api.listArtifactBundles({ headers: headers('owner'), params, query: { limit: '0' } }))
        .status,
    ).toBe(422)
  })
})
