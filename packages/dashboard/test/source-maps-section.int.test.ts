import { createClient as createApi, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDashboard } from '../src/index'
import { ADMIN_TOKEN, HARNESS_ENV, sessionsOf } from './fixture'
import { bundleOf } from './source-map-fixtures'

// The settings page's "Source maps" section over the real engine and store on PGlite: the list,
// delete for owners and administrators, the 403 of a member. Bundles are stored through the
// store's own `saveArtifactBundle` (the upload API's tests drive it with the real sentry-cli);
// the section calls the engine's `sourceMaps`.

describe('the Source maps section of the settings page (PGlite)', () => {
  let harness: Harness
  let dashboard: ReturnType<typeof createDashboard>
  const session = sessionsOf((path, init) => dashboard.request(path, init))

  beforeAll(async () => {
    harness = await startPgliteHarness(HARNESS_ENV)
    dashboard = createDashboard({ engine: harness.server.engine })
  }, 60_000)
  afterAll(async () => {
    await harness?.close()
  })

  async function get(path: string, token = ADMIN_TOKEN) {
    const { cookie } = await session(token)
    const res = await dashboard.request(path, { headers: { cookie } })
    return { res, text: await res.text() }
  }
  async function post(path: string, token = ADMIN_TOKEN, form: Record<string, string> = {}) {
    const { cookie, csrf } = await session(token)
    return dashboard.request(path, {
      method: 'POST',
      body: new URLSearchParams({ _csrf: csrf, ...form }),
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    })
  }
  function sectionOf(html: string, id: string) {
    const start = html.indexOf(`<h2 id="${id}">`)
    expect(start, `section #${id}`).toBeGreaterThan(-1)
    const end = html.indexOf('<h2 ', start + 1)
    return html.slice(start, end === -1 ? undefined : end)
  }
  /** An owner's project with a member, and one bundle the owner uploaded. */
  async function projectWithBundle(release: string) {
    const api = createApi(harness.url)
    const owner = await api.createUser()
    const member = await api.createUser()
    const project = await api.createProject(owner.token)
    const settings = `/projects/${project.id}/settings`
    const added = await post(`${settings}/members`, owner.token, { email: member.email })
    expect(added.status).toBe(303)
    const bundle = await harness.server.store.saveArtifactBundle(bundleOf(project.id, release))
    return { bundle, owner, member, project, settings }
  }

  it('lists the stored bundles: release, dist, files, size, debug IDs, upload time', async () => {
    const { bundle, owner, project, settings } = await projectWithBundle('1.2.0')
    const section = sectionOf((await get(settings, owner.token)).text, 'source-maps')
    const row = section.match(/<tr data-bundle="([0-9a-f-]{36})">(.*?)<\/tr>/s)
    expect(row, section).not.toBeNull()
    expect(row![1]).toBe(bundle.id)
    const cells = row![2]!
    expect(cells).toMatch(/^<td>1\.2\.0<\/td><td><span class="muted">none<\/span><\/td>/)
    expect(cells).toContain('<td class="num">2</td>')
    expect(cells).toContain(`<td class="num">${bundle.size} B</td>`)
    // The files' debug ID, shortened, in full on hover and for screen readers.
    const [debugId] = bundle.debugIds
    expect(cells).toContain(
      `<code title="${debugId}">${debugId!.slice(0, 8)}<span class="skip">${debugId!.slice(8)}</span></code>`,
    )
    expect(cells).toMatch(/<time datetime="[^"]+" title="[^"]+">\d+ seconds? ago<\/time>/)
    expect(cells).toContain(`action="${settings}/source-maps/${row![1]}/delete#source-maps"`)
    // The page's own origin (`app.request` answers as http://localhost).
    expect(section).toContain(
      `sentry-cli --url http://localhost --auth-token &lt;your access token&gt; \\\n  sourcemaps upload --org tis --project ${project.id} dist`,
    )
    expect(section).toContain('<a href="/docs/sourcemaps.html">Source maps</a>')
  })

  it('deletes a bundle for its owner; a member sees no delete button and is refused', async () => {
    const { owner, member, settings } = await projectWithBundle('2.0.0')
    const listed = sectionOf((await get(settings, member.token)).text, 'source-maps')
    const bundleId = listed.match(/<tr data-bundle="([0-9a-f-]{36})">/)?.[1]
    expect(bundleId).toBeDefined()
    expect(listed).toContain('<td>2.0.0</td>')
    expect(listed).not.toContain('/delete')
    const refused = await post(`${settings}/source-maps/${bundleId}/delete`, member.token)
    expect(refused.status).toBe(403)
    expect(sectionOf(await refused.text(), 'source-maps')).toMatch(/<p class="alert" role="alert">/)
    const deleted = await post(`${settings}/source-maps/${bundleId}/delete`, owner.token)
    expect(deleted.status).toBe(303)
    expect(deleted.headers.get('location')).toBe(`${settings}?done=bundle-deleted#source-maps`)
    const after = sectionOf(
      (await get(`${settings}?done=bundle-deleted`, owner.token)).text,
      'source-maps',
    )
    expect(after).toContain('The source map bundle was deleted.')
    expect(after).not.toContain(bundleId)
    expect(after).toContain('No source maps uploaded yet')
  })
})
