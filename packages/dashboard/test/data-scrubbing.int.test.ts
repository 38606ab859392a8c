import { createClient as createApi, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDashboard } from '../src/index'
import { ADMIN_TOKEN, HARNESS_ENV, sessionsOf } from './fixture'

// Data scrubbing in the dashboard over the real engine on PGlite (docs/data-scrubbing.md): the
// settings section (who sees what, the form, a refusal) and the event page, which marks every
// value the scrubber filtered, says how many were, and shows the frames' local variables.

const MARK = '<mark class="filtered" title="Filtered by data scrubbing">[Filtered]</mark>'

describe('dashboard data scrubbing over the engine (PGlite)', () => {
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
    const end = html.indexOf('<h2', start + 1)
    return html.slice(start, end === -1 ? undefined : end)
  }
  const factOf = (html: string, label: string) =>
    html.match(new RegExp(`<dt>${label}</dt><dd>(.*?)</dd>`, 's'))?.[1] ?? ''
  const stored = async (projectId: string, token: string) =>
    (
      await harness.server.engine.management.getDataScrubbing({
        headers: { authorization: `Bearer ${token}` },
        params: { id: projectId },
      })
    ).body

  /** A project owned by a new user, with a member. */
  async function project() {
    const api = createApi(harness.url)
    const owner = await api.createUser()
    const member = await api.createUser()
    const own = await api.createProject(owner.token)
    const settings = `/projects/${own.id}/settings`
    expect((await post(`${settings}/members`, { email: member.email }, owner.token)).status).toBe(
      303,
    )
    return { id: own.id, owner, member, settings }
  }

  it('shows the settings in force to everyone and the form to the owner only', async () => {
    const p = await project()
    const mine = sectionOf((await get(p.settings, p.owner.token)).text, 'data-scrubbing')
    expect(factOf(mine, 'Scrubbing')).toBe('on')
    expect(factOf(mine, 'Extra fields')).toBe('<span class="muted">none</span>')
    expect(factOf(mine, 'Safe fields')).toBe('<span class="muted">none</span>')
    expect(factOf(mine, 'IP addresses')).toBe('kept')
    expect(mine).toContain('<a href="/docs/data-scrubbing.html">Data scrubbing</a>')
    expect(mine).toContain(`action="${p.settings}/data-scrubbing#data-scrubbing"`)
    expect(mine).toMatch(/<input type="hidden" name="_csrf" value="[^"]+"/)
    expect(mine).toMatch(
      /<input id="scrub-enabled" name="enabled" type="checkbox" value="1" checked/,
    )
    expect(mine).toMatch(
      /<input id="scrub-ip" name="scrub_ip_addresses" type="checkbox" value="1"\/?>/,
    )
    expect(mine).toContain('Save data scrubbing')

    const theirs = sectionOf((await get(p.settings, p.member.token)).text, 'data-scrubbing')
    expect(factOf(theirs, 'Scrubbing')).toBe('on')
    expect(theirs).toContain('id="data-scrubbing-readonly"')
    expect(theirs).not.toContain('<form')
  })

  it('saves what the owner submits, read back through the engine and shown to the member', async () => {
    const p = await project()
    const saved = await post(
      `${p.settings}/data-scrubbing`,
      {
        enabled: '1',
        extra_fields: 'ssn, customer_note\nSSN\n',
        safe_fields: 'session',
        scrub_ip_addresses: '1',
      },
      p.owner.token,
    )
    expect(saved.status).toBe(303)
    expect(saved.headers.get('location')).toBe(`${p.settings}?done=scrubbing-saved#data-scrubbing`)
    expect(await stored(p.id, p.owner.token)).toEqual({
      data_scrubbing: {
        enabled: true,
        extra_fields: ['ssn', 'customer_note'],
        safe_fields: ['session'],
        scrub_ip_addresses: true,
      },
    })
    const shown = sectionOf(
      (await get(`${p.settings}?done=scrubbing-saved`, p.owner.token)).text,
      'data-scrubbing',
    )
    expect(shown).toContain('The data scrubbing settings were saved.')
    expect(shown).toContain('>ssn\ncustomer_note</textarea>')
    const seen = sectionOf((await get(p.settings, p.member.token)).text, 'data-scrubbing')
    expect(factOf(seen, 'Extra fields')).toBe(
      '<span><code>ssn</code>, <code>customer_note</code></span>',
    )
    expect(factOf(seen, 'Safe fields')).toBe('<span><code>session</code></span>')
    expect(factOf(seen, 'IP addresses')).toBe('filtered')

    // Unchecked boxes are not sent: scrubbing off, IP addresses kept, the lists cleared.
    const off = await post(
      `${p.settings}/data-scrubbing`,
      { extra_fields: '', safe_fields: '' },
      p.owner.token,
    )
    expect(off.status).toBe(303)
    expect(await stored(p.id, p.owner.token)).toEqual({
      data_scrubbing: {
        enabled: false,
        extra_fields: [],
        safe_fields: [],
        scrub_ip_addresses: false,
      },
    })
    const now = sectionOf((await get(p.settings, p.owner.token)).text, 'data-scrubbing')
    expect(factOf(now, 'Scrubbing')).toBe('off: values are stored as sent')
  })

  it("shows the API's 422 with the values as typed, and refuses a member's change", async () => {
    const p = await project()
    const long = 'x'.repeat(201)
    const refused = await post(
      `${p.settings}/data-scrubbing`,
      { extra_fields: `ssn\n${long}`, safe_fields: '<b>safe</b>', scrub_ip_addresses: '1' },
      p.owner.token,
    )
    expect(refused.status).toBe(422)
    const section = sectionOf(await refused.text(), 'data-scrubbing')
    expect(section).toMatch(/role="alert">[^<]*extra_fields[^<]*at most 200 characters/)
    expect(section).toContain(`>ssn\n${long}</textarea>`)
    expect(section).toContain('>&lt;b&gt;safe&lt;/b&gt;</textarea>')
    // The boxes as they were submitted; the facts above still the stored settings.
    expect(section).toMatch(/name="enabled" type="checkbox" value="1"\/?>/)
    expect(section).toMatch(/name="scrub_ip_addresses" type="checkbox" value="1" checked/)
    expect(factOf(section, 'Scrubbing')).toBe('on')
    expect(await stored(p.id, p.owner.token)).toMatchObject({
      data_scrubbing: { enabled: true, extra_fields: [] },
    })

    const member = await post(
      `${p.settings}/data-scrubbing`,
      { extra_fields: 'ssn' },
      p.member.token,
    )
    expect(member.status).toBe(403)
    expect(sectionOf(await member.text(), 'data-scrubbing')).toMatch(
      /<p class="alert" role="alert">/,
    )
    expect(await stored(p.id, p.owner.token)).toMatchObject({
      data_scrubbing: { enabled: true, extra_fields: [] },
    })
  })

  /** The page of a project's only issue (`query` appended to its path). */
  async function issuePage(projectId: string, query = '') {
    await harness.server.engine.flush()
    const issues = (await get(`/projects/${projectId}/issues`)).text
    const issueId = issues.match(/issues\/([0-9a-f-]{36})"/)![1]!
    const page = await get(`/projects/${projectId}/issues/${issueId}${query}`)
    expect(page.res.status).toBe(200)
    return page.text
  }

  it('marks the values filtered from a native event, says how many were and never shows a secret', async () => {
    const api = createApi(harness.url)
    const { projectId, key } = await api.projectWithKey()
    const sent = await api.ingest('/api/v1/ingest_events', key, {
      event: {
        event_type: 'error',
        message: 'charge failed',
        context: {
          password: 'hunter2',
          note: '<script>x</script> Bearer abcdefgh12345678',
          exception: {
            class: 'CardError',
            message: 'card 4111 1111 1111 1111 declined',
            frames: [
              {
                function: 'charge',
                filename: 'app.py',
                lineno: 3,
                vars: { password: 'p', amount: 3, memo: '<script>y</script>' },
              },
              { function: 'main', filename: 'app.py', lineno: 9 },
            ],
          },
          request: {
            method: 'POST',
            url: 'https://shop.example/pay?token=abc123&page=2',
            data: { card_number: '4111-1111-1111-1111', item: 'mug' },
          },
          breadcrumbs: [
            {
              category: 'db',
              message: 'connect postgres://app:s3cret@db/shop',
              data: { api_key: 'k-123' },
            },
          ],
        },
      },
    })
    expect(sent.status).toBe(201)
    const page = await issuePage(projectId)
    for (const secret of ['hunter2', 'abcdefgh12345678', '4111', 'abc123', 's3cret', 'k-123']) {
      expect(page).not.toContain(secret)
    }
    expect(page).not.toContain('<script>x')
    expect(page).not.toContain('<script>y')
    expect(page).toContain(
      '<p class="muted" id="data-scrubbing-report">8 values filtered by data scrubbing (sensitive key 4, credit card 2, bearer token 1, url password 1). <a href="/docs/data-scrubbing.html">About data scrubbing</a></p>',
    )
    // The report comes before the event's details.
    expect(page.indexOf('id="data-scrubbing-report"')).toBeLessThan(
      page.indexOf('id="stack-trace"'),
    )

    const rest = sectionOf(page, 'event-context')
    expect(rest).toContain(`<th scope="row">password</th><td>${MARK}</td>`)
    expect(rest).toContain(`<td>&lt;script&gt;x&lt;/script&gt; ${MARK}</td>`)
    expect(rest).not.toContain('data_scrubbing')
    expect(sectionOf(page, 'stack-trace')).toContain(`<code>card ${MARK} declined</code>`)
    const request = page.slice(page.indexOf('<h2>Request</h2>'), page.indexOf('<h2>Tags</h2>'))
    expect(request).toContain(`https://shop.example/pay?token=${MARK}&amp;page=2`)
    expect(request).toContain(`&quot;card_number&quot;:&quot;${MARK}&quot;`)
    const crumbs = sectionOf(page, 'breadcrumbs')
    expect(crumbs).toContain(`<td>db</td>`)
    expect(crumbs).toContain(`connect postgres://app:${MARK}@db/shop`)
    expect(crumbs).toContain(`<code>{&quot;api_key&quot;:&quot;${MARK}&quot;}</code>`)

    // The frame's local variables, folded; the frame without any has none.
    const trace = sectionOf(page, 'stack-trace')
    expect(trace).toContain('<details class="vars"><summary>Local variables (3)</summary>')
    expect(trace).toContain('<caption class="skip">Local variables of charge</caption>')
    expect(trace).toContain(
      `<th scope="row"><code>password</code></th><td><code>&quot;${MARK}&quot;</code></td>`,
    )
    expect(trace).toContain('<th scope="row"><code>amount</code></th><td><code>3</code></td>')
    expect(trace).toContain('<code>&quot;&lt;script&gt;y&lt;/script&gt;&quot;</code>')
    expect(trace.match(/class="vars"/g)).toHaveLength(1)
  })

  it("shows a Sentry event's frame variables, request cookies and breadcrumbs, filtered", async () => {
    const api = createApi(harness.url)
    const { projectId, key } = await api.projectWithKey()
    const { number } = (
      await api.api('GET', `/api/v1/projects/${projectId}`, { token: ADMIN_TOKEN })
    ).body.project
    const sent = await api.api('POST', `/api/${number}/store/`, {
      apiKey: key,
      json: {
        event_id: 'a'.repeat(32),
        level: 'error',
        platform: 'python',
        exception: {
          values: [
            {
              type: 'KeyError',
              value: "'cart'",
              stacktrace: {
                frames: [
                  {
                    function: 'checkout',
                    filename: 'shop/views.py',
                    lineno: 41,
                    in_app: true,
                    vars: {
                      db_url: 'postgres://app:pw-9876@db/shop',
                      session_token: 'st-555',
                      qty: 2,
                    },
                  },
                ],
              },
            },
          ],
        },
        request: {
          url: 'https://shop.example/checkout',
          method: 'POST',
          cookies: 'sessionid=cookie-777',
          headers: { Authorization: 'Bearer header-token-42', Accept: 'text/html' },
        },
        breadcrumbs: {
          values: [{ category: 'auth', message: 'login', data: { password: 'pw-1' } }],
        },
      },
    })
    expect(sent.status).toBe(200)
    const page = await issuePage(projectId)
    for (const secret of ['pw-9876', 'st-555', 'cookie-777', 'header-token-42', 'pw-1']) {
      expect(page).not.toContain(secret)
    }
    expect(page).toMatch(/id="data-scrubbing-report">\d+ values filtered by data scrubbing \(/)
    const trace = sectionOf(page, 'stack-trace')
    expect(trace).toContain('<caption class="skip">Local variables of checkout</caption>')
    expect(trace).toContain(`<code>&quot;postgres://app:${MARK}@db/shop&quot;</code>`)
    expect(trace).toContain(
      `<th scope="row"><code>session_token</code></th><td><code>&quot;${MARK}&quot;</code></td>`,
    )
    expect(trace).toContain('<th scope="row"><code>qty</code></th><td><code>2</code></td>')
    const request = page.slice(page.indexOf('<h2>Request</h2>'), page.indexOf('<h2>Tags</h2>'))
    expect(request).toContain(`<th scope="row">cookies</th><td>${MARK}</td>`)
    expect(request).toContain(`&quot;Authorization&quot;:&quot;${MARK}&quot;`)
    expect(request).toContain('&quot;Accept&quot;:&quot;text/html&quot;')
    expect(sectionOf(page, 'breadcrumbs')).toContain(
      `<code>{&quot;password&quot;:&quot;${MARK}&quot;}</code>`,
    )
  })

  it('shows local variables under frames resolved with source maps, and under the frames as sent', async () => {
    const api = createApi(harness.url)
    const { projectId, key } = await api.projectWithKey()
    const frame = {
      function: 'explode',
      filename: 'src/checkout.ts',
      lineno: 9,
      colno: 11,
      in_app: true,
      context_line: '  throw err',
      raw: {
        function: 'o',
        filename: 'https://shop.example/assets/index.js',
        lineno: 1,
        colno: 77,
      },
      sourcemap: { resolved: true, with: 'debug_id' },
      vars: { api_key: 'ak-31337', input: 'mug' },
    }
    const sent = await api.ingest('/api/v1/ingest_events', key, {
      event: { event_type: 'error', message: 'boom', context: { exception: { frames: [frame] } } },
    })
    expect(sent.status).toBe(201)
    for (const query of ['', '?frames=raw']) {
      const trace = sectionOf(await issuePage(projectId, query), 'stack-trace')
      expect(trace).not.toContain('ak-31337')
      expect(trace).toContain(query ? 'index.js:1:77' : '<code>  throw err</code>')
      expect(trace).toContain(
        `<caption class="skip">Local variables of ${query ? 'o' : 'explode'}</caption>`,
      )
      expect(trace).toContain(
        `<th scope="row"><code>api_key</code></th><td><code>&quot;${MARK}&quot;</code></td>`,
      )
      expect(trace).toContain('<td><code>&quot;mug&quot;</code></td>')
    }
  })
})
