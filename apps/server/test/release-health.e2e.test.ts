// Release health from the real clients against a real server (PGlite): Sentry's Node SDK serving
// requests in request mode (its aggregates, flushed), Sentry's browser SDK in headless Chromium
// (a clean page load and one that throws, two users), Debian's Python SDK (WSGI aggregates and an
// application session) and our own SDKs (a script, and Express in request mode). The read API's totals, statuses, users and crash-free
// rates are what the clients sent; a replayed envelope counts once; a session is never an issue;
// another project's user cannot read them.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { describeWithChromium, launchChromium } from '@tis/test-utils/chromium'
import { runScript } from '@tis/test-utils/run-script'
import { ADMIN_TOKEN, createClient, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleSentryBrowser } from './support/sentry-browser-page'
import { createSentryProject, type SentryProject } from './support/sentry-clients'
import { describeWithSentryPython, SYSTEM_PYTHON } from './support/sentry-python-suite'

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))

let harness: Harness
let page: { origin: string; close(): Promise<void> }

// The browser application: Sentry's defaults (browserSessionIntegration among them), the user
// from the page's query, and an uncaught error when it asks for one.
const APP = `
const query = new URLSearchParams(location.search)
Sentry.init({
  dsn: query.get('dsn'),
  environment: 'production',
  release: 'web@3.0.0',
  initialScope: { user: { id: query.get('user') } },
})
if (query.get('throw')) setTimeout(() => { throw new Error('checkout exploded') }, 50)
`

async function startPage() {
  const sdk = await bundleSentryBrowser()
  const html =
    '<!doctype html><title>shop</title><script src="/sentry.js"></script><script src="/app.js"></script>'
  const files: Record<string, [string, string]> = {
    '/': ['text/html', html],
    '/sentry.js': ['text/javascript', sdk],
    '/app.js': ['text/javascript', APP],
  }
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://page').pathname]
    if (file) res.writeHead(200, { 'Content-Type': file[0] }).end(file[1])
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

beforeAll(async () => {
  page = await startPage()
  harness = await startPgliteHarness({ SERVICE_CORS_ORIGINS: page.origin })
}, 60_000)
afterAll(async () => {
  await harness?.close()
  await page?.close()
})

/** The release as the read API answers it, once its sessions reach `total` (or the wait ends). */
async function releaseOf(project: SentryProject, version: string, total: number) {
  const deadline = Date.now() + 20_000
  for (;;) {
    const body = await project.read(`/releases/${encodeURIComponent(version)}`).catch(() => null)
    const release = body?.release
    if ((release && release.sessions.total >= total) || Date.now() > deadline) return release
    await new Promise((r) => setTimeout(r, 200))
  }
}

async function issueCount(project: SentryProject) {
  return (await project.read('/issues?status=all')).issues.length as number
}

describe('release health from the real clients', () => {
  it("@sentry/node's request sessions: ok, a handled error, a crash through its error handler", async () => {
    const project = await createSentryProject(harness)
    const run = await runScript(process.execPath, [fixture('sessions-sentry-node-app.mjs')], {
      env: { DSN: project.dsn },
      timeoutMs: 60_000,
    })
    expect(run.code, run.stderr).toBe(0)
    const out = JSON.parse(run.stdout.trim().split('\n').at(-1)!)
    expect(out.statuses).toEqual([200, 200, 200, 200, 200, 500])
    expect(out.sessions).toHaveLength(1)
    const release = await releaseOf(project, 'shop@2.0.0', 6)
    expect(release).toMatchObject({
      version: 'shop@2.0.0',
      environment: null,
      sessions: { total: 6, healthy: 3, errored: 2, crashed: 1, abnormal: 0 },
      // @sentry/node's aggregates carry no user.
      users: { total: 0, crashed: 0 },
      crash_free_sessions: 5 / 6,
      crash_free_users: null,
      adoption: 1,
    })
    // The SDK's envelope replayed as it was sent: acknowledged, counted once.
    const replay = await fetch(`${harness.url}/api/${project.number}/envelope/`, {
      method: 'POST',
      headers: {
        'x-sentry-auth': `Sentry sentry_key=${/\/\/([0-9a-f]{32})@/.exec(project.dsn)![1]}`,
      },
      body: Buffer.from(out.sessions[0], 'base64'),
    })
    expect(replay.status).toBe(200)
    await harness.query('select 1') // once the projection has passed the replay
    expect((await project.read('/releases/shop%402.0.0')).release.sessions.total).toBe(6)
    // The two errors are issues; the sessions are not.
    expect(await issueCount(project)).toBe(2)
    // Another project's owner sees none of it.
    const c = createClient(harness.url)
    const stranger = await c.createUser()
    const other = await c.api('GET', `/api/v1/projects/${project.projectId}/releases`, {
      token: stranger.token,
    })
    expect(other.status).toBe(404)
  }, 90_000)

  it('our own SDKs: a script session, and Express requests in request mode', async () => {
    const c = createClient(harness.url)
    const { projectId, key } = await c.projectWithKey()
    const run = await runScript(process.execPath, [fixture('sessions-tis-app.mjs')], {
      env: { BASE_URL: harness.url, API_KEY: key },
      timeoutMs: 60_000,
    })
    expect(run.code, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toEqual({
      statuses: [200, 200, 200, 500],
    })
    const project = {
      read: async (path: string) =>
        (await c.api('GET', `/api/v1/projects/${projectId}${path}`, { token: ADMIN_TOKEN })).body,
    } as SentryProject
    expect(await releaseOf(project, 'job@1.0.0', 1)).toMatchObject({
      sessions: { total: 1, healthy: 0, errored: 1, crashed: 0, abnormal: 0 },
      crash_free_sessions: 1,
    })
    expect(await releaseOf(project, 'api@1.0.0', 4)).toMatchObject({
      environment: null,
      sessions: { total: 4, healthy: 2, errored: 1, crashed: 1, abnormal: 0 },
      users: { total: 2, crashed: 0 },
      crash_free_sessions: 0.75,
      crash_free_users: 1,
    })
  }, 60_000)
})

describeWithChromium('@sentry/browser sessions in headless Chromium', () => {
  let browser: Awaited<ReturnType<typeof launchChromium>>
  beforeAll(async () => {
    browser = await launchChromium()
  }, 30_000)
  afterAll(() => browser?.close())

  it('a clean page load and one that throws, by two users', async () => {
    const project = await createSentryProject(harness)
    for (const [user, extra] of [
      ['ann', ''],
      ['bob', '&throw=1'],
    ] as const) {
      const tab = await browser.newPage()
      const sent = tab.waitForResponse((r) => r.url().includes('/envelope/') && r.status() === 200)
      await tab.goto(`${page.origin}/?dsn=${encodeURIComponent(project.dsn)}&user=${user}${extra}`)
      await sent
      if (extra) {
        // The uncaught error: its event and the session marked unhandled.
        await tab.waitForResponse((r) => r.url().includes('/envelope/') && r.status() === 200)
      }
      await new Promise((r) => setTimeout(r, 500))
      await tab.close()
    }
    const release = await releaseOf(project, 'web@3.0.0', 2)
    expect(release).toMatchObject({
      sessions: { total: 2, healthy: 1, errored: 1, crashed: 0, abnormal: 0 },
      users: { total: 2, crashed: 0 },
      crash_free_sessions: 1,
      crash_free_users: 1,
    })
    expect(await issueCount(project)).toBe(1)
  }, 60_000)
})

describeWithSentryPython("Debian's python3-sentry-sdk sessions", () => {
  it('WSGI request aggregates and an application session', async () => {
    const project = await createSentryProject(harness)
    const run = await runScript(SYSTEM_PYTHON, [fixture('sessions-sentry-python-app.py')], {
      env: { DSN: project.dsn },
      timeoutMs: 60_000,
    })
    expect(run.code, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toEqual({
      statuses: [200, 200, 200, 500],
    })
    const release = await releaseOf(project, 'shop@3.0.0', 5)
    expect(release).toMatchObject({
      // Requests: two ok, one with a handled error, one crash; the job: exited with errors: 1.
      sessions: { total: 5, healthy: 2, errored: 2, crashed: 1, abnormal: 0 },
      crash_free_sessions: 0.8,
    })
  }, 60_000)
})
