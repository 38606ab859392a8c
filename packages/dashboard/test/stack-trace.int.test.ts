import { createClient as createApi, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDashboard } from '../src/index'
import { ADMIN_TOKEN, HARNESS_ENV, seedTelemetry, sessionsOf } from './fixture'
import { MAPPED_EVENT, MINIFIED, VENDOR } from './source-map-fixtures'

// The issue page's stack trace over the real engine on PGlite, for frames in the stored shape of
// docs/sourcemaps.md (what the projection writes once it resolved them): original lines, the
// frames as sent behind `?frames=raw`, why a frame is not resolved, library frames folded.

describe('the stack trace of an event resolved with source maps (PGlite)', () => {
  let harness: Harness
  let dashboard: ReturnType<typeof createDashboard>
  let issuePath: string
  const session = sessionsOf((path, init) => dashboard.request(path, init))

  async function get(path: string) {
    const { cookie } = await session(ADMIN_TOKEN)
    const res = await dashboard.request(path, { headers: { cookie } })
    expect(res.status).toBe(200)
    return res.text()
  }
  /** The markup of the stack trace: from its heading to the next one. */
  const traceOf = (html: string) => {
    const start = html.indexOf('<h2 id="stack-trace">')
    expect(start).toBeGreaterThan(-1)
    return html.slice(start, html.indexOf('<h2', start + 1))
  }

  beforeAll(async () => {
    harness = await startPgliteHarness(HARNESS_ENV)
    dashboard = createDashboard({ engine: harness.server.engine })
    const api = createApi(harness.url)
    const { projectId, key } = await api.projectWithKey()
    const sent = await api.ingest('/api/v1/ingest_events', key, { event: MAPPED_EVENT })
    expect(sent.status).toBe(201)
    await harness.server.engine.flush()
    const issues = await api.api('GET', `/api/v1/projects/${projectId}/issues`, {
      token: ADMIN_TOKEN,
    })
    issuePath = `/projects/${projectId}/issues/${issues.body.issues[0].id}`
  }, 60_000)
  afterAll(async () => {
    await harness?.close()
  })

  it('shows a resolved frame with its original position, source lines and the line that threw', async () => {
    const trace = traceOf(await get(issuePath))
    expect(trace).toContain('<code>explode</code> <span class="muted">src/checkout.ts:9:11</span>')
    // Numbered from the map's lines: two before (7, 8), the frame's line 9 marked, one after.
    expect(trace).toMatch(/<th scope="row" class="ln">7<\/th><td><code>export function explode/)
    expect(trace).toContain('<code>  const total = &lt;b&gt;sum&lt;/b&gt;(input)</code>')
    expect(trace).toMatch(
      /<tr class="hit" aria-current="true"><th scope="row" class="ln"><span class="skip">Error line <\/span>9<\/th><td><code> {2}throw new Error\(&#39;boom &#39; \+ input\)<\/code>/,
    )
    expect(trace).toMatch(/class="ln">10<\/th><td><code>}<\/code>/)
    expect(trace).toContain(
      `Sent as <code>o</code> at <code>${MINIFIED}:1:10234</code>, mapped by debug ID.`,
    )
    // The map's lines are the source: no code host excerpt or hint for this frame.
    const explode = trace.slice(
      trace.indexOf('<code>explode</code>'),
      trace.indexOf('<code>render</code>'),
    )
    expect(explode).not.toContain('no-source')
  })

  it('says why a frame is not resolved, or resolved without its source', async () => {
    const trace = traceOf(await get(issuePath))
    expect(trace).toContain(
      '<p class="muted map-problem">Not resolved: no source map uploaded for ~/assets/vendor-9c1.js in release 1.2.0. <a href="/docs/sourcemaps.html">Uploading source maps</a></p>',
    )
    expect(trace).toContain(`<code>a</code> <span class="muted">${VENDOR}:1:77</span>`)
    // A bundle's URL is never in the repository: the path prefix hint would mislead here.
    expect(trace).not.toContain('is a served URL')
    const render = trace.slice(
      trace.indexOf('<code>render</code>'),
      trace.indexOf('library frames'),
    )
    expect(render).toContain('mapped by release and URL.')
    expect(render).toContain('Source map: map has no sourcesContent for src/view.ts.')
    // Without the map's lines the code host's excerpt is still asked for (none is configured).
    expect(render).toContain('class="muted no-source"')
  })

  it('folds library frames next to each other into one closed <details>', async () => {
    const trace = traceOf(await get(issuePath))
    const folded = trace.match(
      /<li class="library"><details><summary>2 library frames<\/summary>(.*?)<\/details>/s,
    )
    expect(folded?.[1]).toContain('<code>renderRoot</code>')
    expect(folded?.[1]).toContain('<code>commitRoot</code>')
    expect(folded?.[1]).toContain('<li class="not-in-app">')
    expect(trace.indexOf('<code>explode</code>')).toBeLessThan(trace.indexOf('<details>'))
  })

  it('switches to the frames as sent with a plain link, and back', async () => {
    const original = traceOf(await get(issuePath))
    expect(original).toContain(
      `<a href="${issuePath}?frames=raw#stack-trace">as sent (minified)</a>`,
    )
    expect(original).toContain(
      `<a href="${issuePath}#stack-trace" aria-current="true">original (source maps)</a>`,
    )
    const sent = traceOf(await get(`${issuePath}?frames=raw`))
    expect(sent).toContain(`<a href="${issuePath}?frames=raw#stack-trace" aria-current="true">`)
    const items = [
      ...sent.matchAll(/<li><code>(.*?)<\/code> <span class="muted">(.*?)<\/span><\/li>/g),
    ]
    expect(items.map((m) => `${m[1]} ${m[2]}`)).toEqual([
      `o ${MINIFIED}:1:10234`,
      `r ${MINIFIED}:1:500`,
      `x0 ${MINIFIED}:1:20000`,
      `x1 ${MINIFIED}:1:20001`,
      `a ${VENDOR}:1:77`,
    ])
    expect(sent).not.toContain('explode')
    expect(sent).not.toContain('class="excerpt"')
    expect(sent).not.toContain('library frames')
    // Where code host excerpts would come from is beside the point for the frames as sent.
    expect(sent).not.toContain('No commit is known')
  })

  it('offers no switch for frames the source maps did not touch', async () => {
    const api = createApi(harness.url)
    const { projectId, key } = await api.projectWithKey()
    const seeded = await seedTelemetry(harness, key, 'plain1')
    const issues = await api.api('GET', `/api/v1/projects/${projectId}/issues`, {
      token: ADMIN_TOKEN,
    })
    const issue = issues.body.issues.find((i: { title: string }) => i.title === seeded.errorTitle)
    const path = `/projects/${projectId}/issues/${issue.id}`
    for (const view of [path, `${path}?frames=raw`]) {
      const trace = traceOf(await get(view))
      expect(trace).toContain(
        '<code>chargeCard</code> <span class="muted">/app/src/checkout.js:12:5</span>',
      )
      expect(trace).not.toContain('frame-switch')
      expect(trace).not.toContain('<details>')
    }
  })
})
