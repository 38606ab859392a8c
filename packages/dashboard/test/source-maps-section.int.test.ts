import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { createClient as createApi, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DashboardEngine } from '../src/engine-client'
import { createDashboard } from '../src/index'
import { ADMIN_TOKEN, HARNESS_ENV, sessionsOf } from './fixture'

// The settings page's "Source maps" section over the real engine on PGlite, the bundles uploaded
// by the real `sentry-cli` 2 (`sourcemaps inject` + `upload`) to the listening server: the list,
// delete for owners and administrators, the 403 of a member, and no section without the API.
const SENTRY_CLI = fileURLToPath(
  new URL('../../../apps/server/node_modules/sentry-cli-2/bin/sentry-cli', import.meta.url),
)
const run = promisify(execFile)

/** A minified file and its map in a fresh directory, injected with debug IDs and uploaded. */
async function upload(url: string, token: string, projectId: string, release: string) {
  const dir = mkdtempSync(join(tmpdir(), 'tis-dash-maps-'))
  try {
    writeFileSync(
      join(dir, 'app.min.js'),
      'function o(n){throw new Error("boom "+n)}o(1);\n//# sourceMappingURL=app.min.js.map\n',
    )
    const map = {
      version: 3,
      file: 'app.min.js',
      sources: ['src/app.ts'],
      sourcesContent: ["export function explode(n: number) {\n  throw new Error('boom ' + n)\n}\n"],
      names: ['explode'],
      mappings: 'AAAA,SAASA',
    }
    writeFileSync(join(dir, 'app.min.js.map'), JSON.stringify(map))
    const env = { ...process.env, SENTRY_DISABLE_UPDATE_CHECK: 'true', SENTRY_LOG_LEVEL: 'warn' }
    await run(SENTRY_CLI, ['sourcemaps', 'inject', dir], { env })
    await run(
      SENTRY_CLI,
      ['--url', url, '--auth-token', token, 'sourcemaps', 'upload'].concat([
        '--org',
        'tis',
        '--project',
        projectId,
        '--release',
        release,
        dir,
      ]),
      { env },
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('the Source maps section of the settings page (PGlite)', () => {
  let harness: Harness
  let engine: DashboardEngine
  let dashboard: ReturnType<typeof createDashboard>
  const session = sessionsOf((path, init) => dashboard.request(path, init))

  beforeAll(async () => {
    harness = await startPgliteHarness(HARNESS_ENV)
    engine = harness.server.engine
    dashboard = createDashboard({ engine })
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
    await upload(harness.url, owner.token, project.id, release)
    return { owner, member, project, settings }
  }

  it('has no section and no delete route over an engine without the source-map API', async () => {
    const { sourceMaps: _, ...without } = engine
    const plain = createDashboard({ engine: without })
    const { id } = await createApi(harness.url).createProject(ADMIN_TOKEN)
    const { cookie, csrf } = await sessionsOf((p, init) => plain.request(p, init))(ADMIN_TOKEN)
    const html = await (
      await plain.request(`/projects/${id}/settings`, { headers: { cookie } })
    ).text()
    expect(html).toContain('<h2 id="source">')
    expect(html).not.toContain('id="source-maps"')
    const res = await plain.request(`/projects/${id}/settings/source-maps/x/delete`, {
      method: 'POST',
      body: new URLSearchParams({ _csrf: csrf }),
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(res.status).toBe(404)
  })

  it('lists the bundles sentry-cli uploaded: release, files, size, debug IDs, upload time', async (ctx) => {
    if (!engine.sourceMaps)
      ctx.skip('the engine has no sourceMaps yet (not composed by the server)')
    const { owner, project, settings } = await projectWithBundle('1.2.0')
    const section = sectionOf((await get(settings, owner.token)).text, 'source-maps')
    const row = section.match(/<tr data-bundle="([0-9a-f-]{36})">(.*?)<\/tr>/s)
    expect(row, section).not.toBeNull()
    const cells = row![2]!
    expect(cells).toMatch(/^<td>1\.2\.0<\/td><td><span class="muted">none<\/span><\/td>/)
    expect(cells).toContain('<td class="num">2</td>')
    expect(cells).toMatch(/<td class="num">\d+(\.\d)? k?B<\/td>/)
    // The files' debug ID, shortened, in full on hover.
    const id = cells.match(/<code title="([0-9a-f-]{36})">([0-9a-f]{8})<span class="skip">/)
    expect(id?.[1]?.startsWith(id[2]!)).toBe(true)
    expect(cells).toMatch(/<time datetime="[^"]+" title="[^"]+">\d+ seconds? ago<\/time>/)
    expect(cells).toContain(`action="${settings}/source-maps/${row![1]}/delete#source-maps"`)
    // The page's own origin (`app.request` answers as http://localhost).
    expect(section).toContain(
      `sentry-cli --url http://localhost --auth-token &lt;your access token&gt; \\\n  sourcemaps upload --org tis --project ${project.id} dist`,
    )
    expect(section).toContain('<a href="/docs/sourcemaps.html">Source maps</a>')
  })

  it('deletes a bundle for its owner; a member sees no delete button and is refused', async (ctx) => {
    if (!engine.sourceMaps)
      ctx.skip('the engine has no sourceMaps yet (not composed by the server)')
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
