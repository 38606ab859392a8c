import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { describeWithChromium, launchChromium } from '@tis/test-utils/chromium'
import { githubFixture } from '@tis/test-utils/github-fixtures'
import { createClient as createApi, type Harness, startPgliteHarness } from '@tis/test-utils/server'
import { http } from 'msw'
import { setupServer } from 'msw/node'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ADMIN_TOKEN, HARNESS_ENV, mintAndroidToken, type Seeded, seedTelemetry } from './fixture'

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url))
/** The server's GitHub, mocked with msw: any file at {@link SHA} with the project token. */
const GITHUB = 'https://api.github.test'
const GITHUB_TOKEN = 'github_pat_BROWSERtoken_0000000000000000000007'
const SHA = '2222222222222222222222222222222222222222'
const SOURCE = `${Array.from({ length: 20 }, (_, i) =>
  i === 9 ? "  throw new Error('<b>declined</b>')" : `const line${i + 1} = ${i + 1}`,
).join('\n')}\n`
const github = setupServer(
  http.get(`${GITHUB}/repos/:owner/:repo/contents/*`, ({ request }) =>
    request.headers.get('authorization') === `Bearer ${GITHUB_TOKEN}` &&
    new URL(request.url).searchParams.get('ref') === SHA
      ? githubFixture('raw-200', { body: SOURCE })
      : githubFixture('not-found-404'),
  ),
)

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[] }[]
}

// The dashboard served by the real server (in-memory PGlite) in a real headless Chromium: sign
// in, telemetry sent through the public API appearing on every page, resolve, keys, rate-limit
// permissions; axe-core on every page and a screenshot of each in test-artifacts/.
// Without Chromium the suite is skipped locally and fails in CI (describeWithChromium).
describeWithChromium('dashboard in a browser (headless Chromium, apt-get install chromium)', () => {
  let harness: Harness
  let browser: Browser
  let page: Page
  let projectId: string
  let key: string
  let seeded: Seeded
  const audited: Record<string, number> = {}

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true })
    github.listen({
      onUnhandledRequest: (request, print) => {
        if (new URL(request.url).hostname.endsWith('github.test')) print.error()
      },
    })
    harness = await startPgliteHarness({
      ...HARNESS_ENV,
      SERVICE_SECRET_KEY: 'browser-secret-key-0123456789abcdef012345',
      SERVICE_GITHUB_API_URL: GITHUB,
    })
    const project = await createApi(harness.url).projectWithKey()
    projectId = project.projectId
    key = project.key
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await harness?.close()
    github.close()
  })

  /** Runs axe-core (WCAG 2 A/AA rules) and fails on serious or critical violations; saves a screenshot. */
  async function check(name: string) {
    await page.evaluate(AXE_SOURCE)
    const violations = (await page.evaluate(async () => {
      // biome-ignore lint/suspicious/noExplicitAny: the axe global the injected source defines
      const result = await (globalThis as any).axe.run(document, {
        runOnly: {
          type: 'tag',
          values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
        },
        resultTypes: ['violations'],
      })
      return result.violations
    })) as AxeViolation[]
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    expect(
      serious.map(
        (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
      ),
      name,
    ).toEqual([])
    audited[name] = violations.length
    await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true })
  }

  async function signIn(token: string) {
    await page.goto(`${harness.url}/`)
    expect(new URL(page.url()).pathname).toBe('/login')
    await page.getByLabel('User access token').fill(token)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(`${harness.url}/projects`)
  }

  const at = (path: string) => page.goto(`${harness.url}/projects/${projectId}${path}`)

  it('signs in (a wrong token is refused) and shows the empty state with a curl example', async () => {
    await page.goto(`${harness.url}/login`)
    await check('login')
    await page.getByLabel('User access token').fill('tis_user_wrong')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not valid')
    await signIn(ADMIN_TOKEN)
    const cookies = await page.context().cookies()
    const session = cookies.find((c) => c.name === 'tis_session')!
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' })
    // A random session id that outlives a browser restart (30 days), never the access token.
    expect(session.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(session.expires).toBeGreaterThan(Date.now() / 1000 + 29 * 86_400)
    await page
      .getByRole('link', { name: /^project-/ })
      .first()
      .click()
    await page.waitForURL(/\/issues$/)
    expect(await page.locator('#curl-example').textContent()).toContain(
      `${harness.url}/api/v1/ingest_events`,
    )
    await check('issues-empty')
  })

  it('shows telemetry sent through the public API on each page', async () => {
    seeded = await seedTelemetry(harness, key, 'b0b0b0')
    await page.goto(`${harness.url}/projects`)
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: /^project-/ }) })
    expect(await row.first().textContent()).toMatch(/errors?|2/)
    await check('projects')
    await at('/issues')
    await page.getByRole('link', { name: seeded.errorTitle }).waitFor()
    expect(await page.getByRole('img', { name: '2 events in the last 24 hours' }).count()).toBe(1)
    await check('issues')
    await page.getByRole('link', { name: seeded.errorTitle }).click()
    await page.getByRole('heading', { level: 1, name: seeded.errorTitle }).waitFor()
    const text = await page.locator('main').textContent()
    for (const part of [
      'chargeCard',
      'TypeError',
      'eu-west-1',
      seeded.logMessage,
      'First seen 10 minutes after deploy',
    ]) {
      expect(text).toContain(part)
    }
    expect(await page.getByRole('link', { name: 'PR #42' }).getAttribute('href')).toBe(
      'https://github.com/acme/shop/pull/42',
    )
    expect(text).toContain('1 value filtered by data scrubbing (sensitive key 1)')
    await page.getByText('Local variables (2)').click()
    const vars = page.getByRole('table', { name: 'Local variables of chargeCard' })
    expect(await vars.getByRole('row', { name: /api_token/ }).textContent()).toContain(
      '"[Filtered]"',
    )
    expect(await vars.locator('mark.filtered').count()).toBe(1)
    await check('issue-detail')
    await at('/activity')
    expect(await page.locator('#feed').textContent()).toContain(seeded.logMessage)
    await check('activity')
    await at('/performance')
    expect(await page.locator('main').textContent()).toContain('33.3%')
    const chart = page.getByRole('img', { name: /^Latency of all transactions: p50 and p95/ })
    expect(await chart.locator('[data-series="p95"]').count()).toBeGreaterThan(0)
    await check('performance')
    await page
      .getByRole('table', { name: 'Transactions, busiest first' })
      .getByRole('link', { name: 'POST /checkout' })
      .click()
    await page.getByRole('heading', { name: 'Latency of POST /checkout' }).waitFor()
    expect(
      await page
        .getByRole('img', { name: /^Latency of POST \/checkout/ })
        .getAttribute('aria-labelledby'),
    ).toBe('latency-title latency-desc')
    expect(await page.locator('#latency-desc').textContent()).toMatch(
      /^3 transactions; highest p95 49 ms/,
    )
    await check('performance-one')
    await page
      .getByRole('table', { name: 'Recent traces' })
      .getByRole('link', { name: 'POST /checkout' })
      .click()
    await page.getByRole('img', { name: /Trace waterfall of 3 spans/ }).waitFor()
    await check('trace')
    await at('/monitors')
    expect(await page.locator('main').textContent()).toContain('nightly-b0b0b0')
    await check('monitors')
    await page.getByRole('link', { name: 'nightly-b0b0b0' }).click()
    await page.getByRole('heading', { level: 1, name: 'nightly-b0b0b0' }).waitFor()
    const history = page.getByRole('table', { name: 'Check-ins, newest first' })
    expect(await history.getByRole('row').count()).toBe(2)
    expect(await history.getByRole('row').nth(1).textContent()).toContain('ok')
    await check('monitor')
    await at('/deployments')
    expect(await page.getByRole('link', { name: 'compare' }).count()).toBe(1)
    await check('deployments')
  })

  it('updates the activity feed live', async () => {
    await at('/activity?type=log')
    const message = `live log ${Date.now()}`
    await createApi(harness.url).ingest('/api/v1/ingest_events', key, {
      event: { event_type: 'log', level: 'info', message },
    })
    await harness.server.engine.flush()
    await page.locator('#feed').getByText(message).waitFor({ timeout: 12_000 })
  })

  it('updates the inbox live and announces new issues', async () => {
    await at('/issues')
    const title = `Live issue ${Date.now()}`
    await createApi(harness.url).ingest('/api/v1/ingest_events', key, {
      event: { event_type: 'error', message: title },
    })
    await harness.server.engine.flush()
    await page.getByRole('link', { name: title }).waitFor({ timeout: 15_000 })
    expect(await page.locator('#status-message').textContent()).toBe('1 new issue')
    expect(
      await page
        .getByRole('row')
        .filter({ hasText: title })
        .getByRole('img', { name: '1 event in the last 24 hours' })
        .count(),
    ).toBe(1)
  })

  it('searches the inbox from the search box with the keyboard, with the syntax help', async () => {
    await at('/issues')
    await page.locator('summary', { hasText: 'Search syntax' }).focus()
    await page.keyboard.press('Enter')
    expect(await page.getByRole('cell', { name: 'times_seen:>100' }).isVisible()).toBe(true)
    const box = page.getByRole('searchbox', { name: 'Search' })
    await box.fill('level:error "TypeError: boom"')
    await box.press('Enter')
    await page.waitForURL(/query=level%3Aerror/)
    expect(await page.getByRole('link', { name: seeded.errorTitle }).count()).toBe(1)
    expect(await page.getByRole('link', { name: /^Live issue/ }).count()).toBe(0)
    await check('inbox-search')
    await box.fill('browser:chrome')
    await box.press('Enter')
    await page.getByRole('alert').waitFor()
    expect(await page.getByRole('alert').textContent()).toContain(
      'Search: query has an unknown key "browser" in browser:chrome',
    )
    expect(await box.getAttribute('aria-invalid')).toBe('true')
    await check('inbox-search-rejected')
  })

  it('resolves an issue in place with the keyboard, then reopens it without JavaScript', async () => {
    await at('/issues')
    const resolve = page.getByRole('button', { name: `Resolve: ${seeded.errorTitle}` })
    await resolve.focus()
    await page.keyboard.press('Enter')
    await page
      .getByRole('row')
      .filter({ hasText: seeded.errorTitle })
      .getByText('resolved', { exact: true })
      .waitFor()
    expect(new URL(page.url()).pathname).toBe(`/projects/${projectId}/issues`)
    await page.reload()
    expect(await page.getByRole('link', { name: seeded.errorTitle }).count()).toBe(0)
    const noScript = await browser.newContext({ javaScriptEnabled: false })
    const signedIn = (await page.context().cookies()).find((c) => c.name === 'tis_session')!
    await noScript.addCookies([{ name: 'tis_session', value: signedIn.value, url: harness.url }])
    const plain = await noScript.newPage()
    await plain.goto(`${harness.url}/projects/${projectId}/issues?status=resolved`)
    await plain.getByRole('button', { name: `Reopen: ${seeded.errorTitle}` }).click()
    await plain.waitForURL(/status=resolved/)
    expect(await plain.getByRole('link', { name: seeded.errorTitle }).count()).toBe(0)
    await noScript.close()
  })

  it('assigns an issue, comments on it with the keyboard, and finds it with assigned:me', async () => {
    await at('/issues?status=all')
    await page.getByRole('link', { name: seeded.errorTitle }).click()
    await page.waitForURL(/\/issues\/[0-9a-f-]{36}$/)
    const picker = page.getByLabel('Assignee')
    await picker.selectOption({ index: 1 })
    const me = await picker.inputValue()
    expect(me).toMatch(/@/)
    await page.getByRole('button', { name: 'Assign' }).press('Enter')
    await page.waitForLoadState('load')
    expect(await page.getByLabel('Assignee').inputValue()).toBe(me)
    const box = page.getByLabel('Add a comment (markdown)')
    await box.fill('Looks like **the cache** again')
    await box.press('Tab')
    await page.keyboard.press('Enter')
    await page.waitForURL(/#comments$/)
    await page.locator('.comments strong', { hasText: 'the cache' }).waitFor()
    // The test above resolved and reopened the issue: those entries come first.
    expect((await page.locator('.activity li').allTextContents()).slice(-2)).toEqual([
      expect.stringContaining(`${me} assigned ${me}`),
      expect.stringContaining(`${me} commented`),
    ])
    await check('issue-discussion')
    await at('/issues?status=all')
    const search = page.getByRole('searchbox', { name: 'Search' })
    await search.fill('assigned:me')
    await search.press('Enter')
    await page.waitForURL(/query=assigned%3Ame/)
    expect(await page.getByRole('link', { name: seeded.errorTitle }).count()).toBe(1)
    expect(await page.getByText(`assigned to ${me}`).count()).toBe(1)
  })

  it('resolves two issues from the bulk bar with the keyboard, and ignores one from its menu', async () => {
    const titles = ['Bulk one', 'Bulk two'].map((t) => `${t} ${Date.now()}`)
    for (const message of titles) {
      await createApi(harness.url).ingest('/api/v1/ingest_events', key, {
        event: { event_type: 'error', message },
      })
    }
    await harness.server.engine.flush()
    await at('/issues')
    const all = page.getByRole('checkbox', { name: 'Select all issues on this page' })
    await all.check()
    const boxes = page.getByRole('checkbox', { name: /^Select: / })
    expect(await boxes.count()).toBeGreaterThan(2)
    for (const box of await boxes.all()) expect(await box.isChecked()).toBe(true)
    await all.uncheck()
    expect(await page.getByRole('checkbox', { name: /^Select: /, checked: true }).count()).toBe(0)
    for (const title of titles) {
      await page.getByRole('checkbox', { name: `Select: ${title}` }).focus()
      await page.keyboard.press('Space')
    }
    expect(await page.locator('[data-bulk-count]').textContent()).toBe('(2 selected)')
    expect(await all.evaluate((box) => (box as HTMLInputElement).indeterminate)).toBe(true)
    await check('inbox-bulk-selected')
    await page.getByRole('button', { name: 'Resolve', exact: true }).focus()
    await page.keyboard.press('Enter')
    await page.waitForURL(/done=resolve/)
    expect(await page.getByRole('status').filter({ hasText: 'resolved' }).textContent()).toBe(
      '2 issues resolved.',
    )
    for (const title of titles) {
      expect(await page.getByRole('link', { name: title }).count()).toBe(0)
    }
    await check('inbox-bulk-resolved')
    await at('/issues?status=resolved')
    await page.getByRole('link', { name: titles[0]! }).click()
    await page.getByRole('heading', { level: 1, name: titles[0]! }).waitFor()
    await page.locator('summary', { hasText: 'Ignore…' }).focus()
    await page.keyboard.press('Enter')
    await page.getByRole('radio', { name: 'Until N more events' }).check()
    await page.getByRole('spinbutton', { name: 'N more events' }).fill('10')
    await check('issue-ignore-menu')
    // Enter in the count submits the menu's own form (with JavaScript as without).
    await page.getByRole('spinbutton', { name: 'N more events' }).press('Enter')
    await page.getByText('until 10 more events').waitFor()
    expect(await page.locator('.badge.s-ignored').textContent()).toBe('ignored')
  })

  it('merges two issues from the bulk bar; the merged one leaves the inbox, its page moves', async () => {
    const titles = ['Merge one', 'Merge two'].map((t) => `${t} ${Date.now()}`)
    for (const message of [titles[0], titles[0], titles[1]]) {
      await createApi(harness.url).ingest('/api/v1/ingest_events', key, {
        event: { event_type: 'error', message },
      })
    }
    await harness.server.engine.flush()
    await at('/issues')
    const merged = await page.getByRole('link', { name: titles[1]! }).getAttribute('href')
    for (const title of titles) {
      await page.getByRole('checkbox', { name: `Select: ${title}` }).focus()
      await page.keyboard.press('Space')
    }
    await page.getByRole('button', { name: 'Merge', exact: true }).focus()
    await page.keyboard.press('Enter')
    await page.waitForURL(/done=merge/)
    expect(await page.getByRole('status').filter({ hasText: 'merged' }).textContent()).toBe(
      '2 issues merged into one.',
    )
    // The one with more events keeps its id.
    expect(await page.getByRole('link', { name: titles[0]! }).count()).toBe(1)
    expect(await page.getByRole('link', { name: titles[1]! }).count()).toBe(0)
    await check('inbox-bulk-merged')
    await page.goto(`${harness.url}${merged}`)
    await page.getByRole('heading', { level: 1, name: titles[0]! }).waitFor()
    await page.locator('.activity li', { hasText: 'merged an issue into this one' }).waitFor()
  })

  it('creates an API key shown once, and revokes it', async () => {
    await at('/settings')
    await page.getByLabel('Key name').fill('browser-key')
    await page.getByRole('button', { name: 'Create API key' }).click()
    const token = (await page.locator('#new-key-token').textContent())!.trim()
    expect(token).toMatch(/^tis_/)
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: harness.url,
    })
    const copy = page.locator('button[data-copy="new-key-token"]')
    expect(await copy.textContent()).toBe('Copy the key')
    await copy.click()
    await expect.poll(() => copy.textContent()).toBe('Copied')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token)
    await check('settings-new-key')
    const sent = await createApi(harness.url).ingest('/api/v1/ingest_events', token, {
      event: { event_type: 'log', message: 'with the new key' },
    })
    expect(sent.status).toBe(201)
    await at('/settings')
    expect(await page.locator('main').textContent()).not.toContain(token)
    await page.getByRole('button', { name: 'Revoke browser-key' }).click()
    await page.getByText('The API key was revoked.').waitFor()
    const refused = await createApi(harness.url).ingest('/api/v1/ingest_events', token, {
      event: { event_type: 'log', message: 'after revoke' },
    })
    expect(refused.status).toBe(401)
    await check('settings')
  })

  it('archives a project (its keys stop working) and restores it', async () => {
    await at('/settings')
    const sent = () =>
      createApi(harness.url).ingest('/api/v1/ingest_events', key, {
        event: { event_type: 'log', message: 'archive check' },
      })
    expect((await sent()).status).toBe(201)
    await page.getByRole('button', { name: 'Archive project' }).click()
    await page.getByText('The project was archived: its API keys stop working.').waitFor()
    expect(await page.locator('dl.facts').first().textContent()).toContain('archived')
    expect((await sent()).status).toBe(401)
    await check('settings-archived')
    await page.getByRole('button', { name: 'Restore project' }).click()
    await page.getByText('The project was restored.', { exact: false }).waitFor()
    expect(await page.getByRole('button', { name: 'Archive project' }).count()).toBe(1)
    // Archiving revoked the key for good: a restored project needs a new one.
    expect((await sent()).status).toBe(401)
    const fresh = await createApi(harness.url).createKey(projectId)
    key = fresh.token
  })

  it('lists a minted mobile token and revokes it', async () => {
    const minted = await mintAndroidToken(harness)
    await page.goto(`${harness.url}/projects/${minted.projectId}/settings`)
    const row = page.getByRole('table', { name: 'Live mobile ingest tokens' }).getByRole('row')
    expect(await row.filter({ hasText: 'android' }).count()).toBe(1)
    await check('settings-mobile')
    await page.getByRole('button', { name: 'Revoke the android token' }).click()
    await page.getByText('The mobile token was revoked.').waitFor()
    expect(await page.getByText('No live mobile tokens.').count()).toBe(1)
    const refused = await createApi(harness.url).api('POST', '/api/v1/ingest_events', {
      token: minted.token,
      json: { event: { event_type: 'log', message: 'after revoke' } },
    })
    expect(refused.status).toBe(401)
  })

  it('lets an owner see but not edit rate limits, and an administrator edit them', async () => {
    const api = createApi(harness.url)
    const owner = await api.createUser()
    const own = await api.createProject(owner.token)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(`${harness.url}/login`)
    await signIn(owner.token)
    await page.goto(`${harness.url}/projects/${own.id}/settings`)
    expect(
      await page.getByText('Only application administrators can change rate limits.').count(),
    ).toBe(1)
    expect(await page.getByRole('button', { name: 'Save rate limits' }).count()).toBe(0)
    const member = await api.createUser()
    await page.getByLabel('Email').fill(member.email)
    await page.getByRole('button', { name: 'Add member' }).click()
    await page.getByText('The member was added.').waitFor()
    const members = page.getByRole('table', { name: 'People who can see this project' })
    expect(await members.getByRole('row').allTextContents()).toEqual([
      expect.stringMatching(/^EmailRoleAdded$/),
      expect.stringContaining(`${owner.email}owner`),
      expect.stringContaining(`${member.email}member`),
    ])
    await check('settings-owner')
    await page.getByRole('button', { name: 'Sign out' }).click()
    await signIn(ADMIN_TOKEN)
    await page.goto(`${harness.url}/projects/${own.id}/settings`)
    await page.getByLabel('Requests per window').fill('77')
    await page.getByRole('button', { name: 'Save rate limits' }).click()
    await page.getByText('The rate limits were saved.').waitFor()
    expect(await page.getByRole('row', { name: /Requests per window/ }).textContent()).toContain(
      '77',
    )
  })

  it('changes the data scrubbing settings with the form', async () => {
    const own = await createApi(harness.url).createProject()
    await page.goto(`${harness.url}/projects/${own.id}/settings`)
    expect(await page.getByLabel('Filter secrets before events are stored').isChecked()).toBe(true)
    await page.getByLabel(/^Extra fields/).fill('ssn, customer_note')
    await page.getByLabel('Filter client IP addresses').check()
    await page.getByRole('button', { name: 'Save data scrubbing' }).click()
    await page.getByText('The data scrubbing settings were saved.').waitFor()
    expect(new URL(page.url()).hash).toBe('#data-scrubbing')
    const facts = await page.locator('#data-scrubbing-facts').textContent()
    expect(facts).toContain('Extra fieldsssn, customer_note')
    expect(facts).toContain('IP addressesfiltered')
    expect(await page.getByLabel(/^Extra fields/).inputValue()).toBe('ssn\ncustomer_note')
    await check('settings-scrubbing')
  })

  it('adds an alert channel (its secret shown once) and a rule, and logs a test message', async () => {
    const own = await createApi(harness.url).createProject()
    await page.goto(`${harness.url}/projects/${own.id}/settings`)
    await page.locator('#channel-name').fill('ops hook')
    await page.locator('#channel-url').fill('https://203.0.113.10/hook')
    await page.getByRole('button', { name: 'Add channel' }).click()
    const secret = (await page.locator('#new-secret-value').textContent())!.trim()
    expect(secret).toMatch(/^[0-9a-f]{64}$/)
    await check('settings-alerts-secret')
    await page.locator('#rule-name').fill('new issues')
    await page.getByRole('checkbox', { name: 'ops hook' }).check()
    await page.getByRole('button', { name: 'Add rule' }).click()
    await page.getByText('The rule was created.').waitFor()
    expect(await page.locator('main').textContent()).not.toContain(secret)
    await page.getByRole('button', { name: 'Send test to ops hook' }).click()
    await page.getByText('Test message queued').waitFor()
    // Deleting the channel fails its pending test, so nothing is sent to the TEST-NET address.
    await page.getByRole('button', { name: 'Delete ops hook' }).click()
    await page.getByText('The channel was deleted.').waitFor()
    const log = page.getByRole('table', { name: 'Alert deliveries' })
    expect(await log.getByRole('row').count()).toBe(2)
    await check('settings-alerts')
  })

  it('sets a GitHub token in settings and shows source excerpts on the issue page', async () => {
    const api = createApi(harness.url)
    const project = await api.projectWithKey()
    await page.goto(`${harness.url}/projects/${project.projectId}/settings`)
    await page.getByLabel('GitHub token').fill(GITHUB_TOKEN)
    await page.getByLabel(/^Path prefix/).fill('/srv/')
    await page.getByLabel(/^Context lines/).fill('3')
    await page.getByRole('button', { name: 'Save source settings' }).click()
    await page.getByText('The source code settings were saved.').waitFor()
    // The redirect lands on the section, not at the top of the page.
    expect(new URL(page.url()).hash).toBe('#source')
    expect(await page.locator('#source-facts').textContent()).toContain('set (never shown)')
    expect(await page.getByLabel('Replace the GitHub token').inputValue()).toBe('')
    expect(await page.content()).not.toContain(GITHUB_TOKEN)
    await check('settings-source')
    const sent = await api.ingest('/api/v1/ingest_events', project.key, {
      event: {
        event_type: 'error',
        message: 'Error: card declined',
        commit_sha: SHA,
        repository: 'acme/shop',
        context: {
          exception: {
            class: 'Error',
            message: 'card declined',
            frames: [
              { function: 'charge', filename: '/srv/lib/pay.ts', lineno: 10, colno: 9 },
              { function: 'listOnTimeout', filename: 'node:internal/timers', lineno: 581 },
            ],
          },
        },
      },
    })
    expect(sent.status).toBe(201)
    await harness.server.engine.flush()
    await page.goto(`${harness.url}/projects/${project.projectId}/issues`)
    await page.getByRole('link', { name: 'Error: card declined' }).click()
    const excerpt = page.getByRole('table', { name: /lib\/pay\.ts:10/ })
    await excerpt.waitFor()
    expect(await excerpt.getByRole('row').count()).toBe(7)
    const hit = excerpt.locator('tr[aria-current="true"]')
    expect(await hit.textContent()).toBe("Error line 10  throw new Error('<b>declined</b>')")
    expect(await page.locator('main b').count()).toBe(0)
    expect(
      await page.getByRole('link', { name: /^view on GitHub at 2222222/ }).getAttribute('href'),
    ).toBe(`https://github.test/acme/shop/blob/${SHA}/lib/pay.ts#L10`)
    expect(await page.locator('main').textContent()).toContain('node:internal/timers is part of')
    await check('issue-excerpts')
  })

  it('replaces the access token from the account page (shown once), then signs out everywhere', async () => {
    const user = await createApi(harness.url).createUser()
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(`${harness.url}/login`)
    await signIn(user.token)
    await page.getByRole('link', { name: 'Account' }).click()
    await page.waitForURL(`${harness.url}/account`)
    expect(await page.getByRole('table', { name: 'Your sessions' }).textContent()).toContain(
      'this browser',
    )
    await check('account')
    await page.getByRole('button', { name: 'Replace my access token' }).click()
    const fresh = (await page.locator('#new-token-value').textContent()) ?? ''
    expect(fresh).toMatch(/^tis_user_[0-9a-f]{48}$/)
    await check('account-new-token')
    const projects = (token: string) =>
      createApi(harness.url).api('GET', '/api/v1/projects', { token })
    expect((await projects(user.token)).status).toBe(401)
    expect((await projects(fresh)).status).toBe(200)
    // Still signed in, with a new session: the page works and the token is not shown again.
    await page.goto(`${harness.url}/account`)
    expect(await page.content()).not.toContain(fresh)
    await page.getByRole('button', { name: 'Sign out everywhere' }).click()
    await page.waitForURL(`${harness.url}/login`)
    await page.goto(`${harness.url}/projects`)
    expect(new URL(page.url()).pathname).toBe('/login')
    await signIn(ADMIN_TOKEN)
  })

  it('audited every page with axe-core', () => {
    expect(Object.keys(audited).sort()).toEqual(
      [
        'account',
        'account-new-token',
        'activity',
        'deployments',
        'issue-detail',
        'issue-discussion',
        'issue-excerpts',
        'issue-ignore-menu',
        'issues',
        'issues-empty',
        'inbox-bulk-merged',
        'inbox-bulk-resolved',
        'inbox-bulk-selected',
        'inbox-search',
        'inbox-search-rejected',
        'login',
        'monitor',
        'monitors',
        'performance',
        'projects',
        'performance-one',
        'settings',
        'settings-alerts',
        'settings-alerts-secret',
        'settings-archived',
        'settings-mobile',
        'settings-new-key',
        'settings-owner',
        'settings-scrubbing',
        'settings-source',
        'trace',
      ].sort(),
    )
    console.info('axe-core violations below serious, per page:', audited)
  })
})
