import {
  createClient as createApi,
  type Harness,
  RETENTION_TEST_ENV,
  startPgliteHarness,
} from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDashboard } from '../src/index'
import { ADMIN_TOKEN, HARNESS_ENV, seedTelemetry, sessionsOf } from './fixture'

// Retention (issue 23) in the dashboard over the real engine on PGlite: the settings section
// (period, default, disk use, the form and who sees it) and the issue whose events all expired.
const DAY_MS = 86_400_000

describe('dashboard retention over the engine (PGlite)', () => {
  let harness: Harness
  let dashboard: ReturnType<typeof createDashboard>
  const session = sessionsOf((path, init) => dashboard.request(path, init))

  beforeAll(async () => {
    harness = await startPgliteHarness({ ...HARNESS_ENV, ...RETENTION_TEST_ENV })
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
  async function post(path: string, form: Record<string, string>, token = ADMIN_TOKEN) {
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
  const rowOf = (html: string, label: string) =>
    html.match(new RegExp(`<th scope="row">${label}</th>(.*?)</tr>`, 's'))?.[1] ?? ''

  it('shows the period in force, the server default and the approximate disk use', async () => {
    const { projectId, key } = await createApi(harness.url).projectWithKey()
    await seedTelemetry(harness, key, 'ret1')
    // A source-map upload of one 1234-byte file, as the upload API stores it (migration 21).
    const sha1 = 'c'.repeat(40)
    await harness.query(
      `insert into artifact_blobs (sha1, content, size)
       values ($1, convert_to(repeat('x', 1234), 'UTF8'), 1234) on conflict do nothing`,
      [sha1],
    )
    await harness.query(
      `with b as (insert into artifact_bundles (id, project_id, checksum, bundle_debug_id,
                    file_count, size, uploaded_at, last_used_at)
                  values (gen_random_uuid(), $1::uuid, 'ret1', 'ret1', 1, 1234, now(), now())
                  returning id)
       insert into artifact_files (bundle_id, position, project_id, url, type, headers, sha1, size)
       select b.id, 0, $1::uuid, '~/app.js', 'minified_source', '{}', $2, 1234 from b`,
      [projectId, sha1],
    )
    const page = await get(`/projects/${projectId}/settings`)
    expect(page.res.status).toBe(200)
    const section = sectionOf(page.text, 'retention')
    expect(rowOf(section, 'Kept')).toMatch(/90 days.*server default/s)
    expect(rowOf(section, 'Server default')).toContain('90 days')
    expect(section).toContain('Disk use (approximate)')
    // Two errors, a log, a metric and three transactions; three spans; one check-in.
    expect(rowOf(section, 'Events')).toMatch(
      /<td class="num">7<\/td><td class="num">\d+(\.\d)? [kM]?B</,
    )
    expect(rowOf(section, 'Spans')).toMatch(/<td class="num">3<\/td>/)
    expect(rowOf(section, 'Check-ins')).toMatch(/<td class="num">1<\/td>/)
    expect(rowOf(section, 'Source-map uploads')).toMatch(
      /<td class="num">1<\/td><td class="num">1.2 kB</,
    )
    expect(rowOf(section, 'Total')).toMatch(/\d+(\.\d)? [kM]?B/)
    expect(section).toContain('Save retention')
  })

  it('lets an owner shorten the period, refuses a longer one and lets an admin keep forever', async () => {
    const api = createApi(harness.url)
    const owner = await api.createUser()
    const member = await api.createUser()
    const own = await api.createProject(owner.token)
    const settings = `/projects/${own.id}/settings`
    const saved = await post(`${settings}/retention`, { days: '30' }, owner.token)
    expect(saved.status).toBe(303)
    expect(saved.headers.get('location')).toBe(`${settings}?done=retention-saved#retention`)
    const shown = sectionOf(
      (await get(`${settings}?done=retention-saved`, owner.token)).text,
      'retention',
    )
    expect(shown).toContain('The retention period was saved.')
    expect(rowOf(shown, 'Kept')).toMatch(/30 days.*project&#39;s own/s)

    const longer = await post(`${settings}/retention`, { days: '365' }, owner.token)
    expect(longer.status).toBe(403)
    const refused = sectionOf(await longer.text(), 'retention')
    expect(refused).toMatch(/role="alert"[^>]*>[^<]*administrator/)
    expect(refused).toContain('value="365"')
    const unchanged = sectionOf((await get(settings, owner.token)).text, 'retention')
    expect(rowOf(unchanged, 'Kept')).toMatch(/30 days/)

    const invalid = await post(`${settings}/retention`, { days: 'soon' }, owner.token)
    expect(invalid.status).toBe(422)

    const back = await post(`${settings}/retention`, { days: '30', default: '1' }, owner.token)
    expect(back.status).toBe(303)
    const followed = sectionOf((await get(settings, owner.token)).text, 'retention')
    expect(rowOf(followed, 'Kept')).toMatch(/90 days.*server default/s)

    expect((await post(`${settings}/retention`, { days: '0' })).status).toBe(303)
    const forever = sectionOf((await get(settings)).text, 'retention')
    expect(rowOf(forever, 'Kept')).toMatch(/forever.*project&#39;s own/s)

    // A member sees the figures, not the form.
    expect((await post(`${settings}/members`, { email: member.email }, owner.token)).status).toBe(
      303,
    )
    const seen = sectionOf((await get(settings, member.token)).text, 'retention')
    expect(seen).toContain('forever')
    expect(seen).toContain('Disk use (approximate)')
    expect(seen).not.toContain('Save retention')
    expect(seen).toContain('id="retention-readonly"')
  })

  it('marks an issue whose events have all expired, in the list and on its page', async () => {
    const api = createApi(harness.url)
    const { projectId, key } = await api.projectWithKey()
    const send = async (message: string, daysAgo: number) => {
      const at = new Date(harness.now().getTime() - daysAgo * DAY_MS).toISOString()
      const r = await api.ingest('/api/v1/ingest_events', key, {
        event: { event_type: 'error', message, occurred_at: at },
      })
      expect(r.status).toBe(201)
    }
    await send('old boom', 100)
    await send('new boom', 1)
    await harness.server.engine.flush()
    const before = (await get(`/projects/${projectId}/issues`)).text
    expect(before).not.toContain('events expired')
    await harness.server.engine.runRetention()

    const list = (await get(`/projects/${projectId}/issues`)).text
    const row = (title: string) =>
      list.match(new RegExp(`<tr data-row="[^"]+">(?:(?!</tr>).)*${title}.*?</tr>`, 's'))?.[0] ?? ''
    expect(row('old boom')).toContain('events expired')
    expect(row('new boom')).not.toContain('events expired')
    const id = row('old boom').match(/data-row="([^"]+)"/)![1]!
    const page = (await get(`/projects/${projectId}/issues/${id}`)).text
    expect(page).toContain(
      'Every event of this issue is older than the project&#39;s retention period and was deleted; the count and first/last seen remain.',
    )
    expect(page).not.toContain('Latest events of this issue')
    expect(page).toMatch(/<dt>Events<\/dt><dd>1<\/dd>/)
  })
})
