import { createHash } from 'node:crypto'
import type { Harness } from '@tis/test-utils/server'
import {
  createClient,
  type DashboardSession,
  openPage,
  serverFetcher,
  signIn,
  submitForm,
} from '@tis/test-utils/server'
import { describe, expect, it } from 'vitest'

const DAY = 86_400
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/**
 * Dashboard sessions over HTTP (issue 18): what the cookie holds and the database keeps, idle and
 * absolute expiry on the server's clock, sign-out, sign out everywhere and access-token rotation.
 * Moves the server's clock weeks ahead: keep it the last suite of a harness.
 */
export function describeSessions(harness: () => Harness) {
  const client = () => createClient(harness().url)
  const dashboard = () => serverFetcher(harness().url)
  const page = (session: { cookie: string }, path = '/projects') =>
    openPage(dashboard(), path, session)
  /** A new user signed in once: its access token and its browser. */
  async function signedInUser() {
    const user = await client().createUser()
    return { user, browser: await signIn(dashboard(), user.token) }
  }
  const rows = (userId: string) =>
    harness().query<Record<string, unknown>>(
      `select digest, token_digest, created_at, last_seen_at, idle_expires_at, expires_at,
              user_agent, ip from dashboard_sessions where user_id = $1::uuid`,
      [userId],
    )
  const expectSignedOut = async (browser: Pick<DashboardSession, 'cookie'>) => {
    const refused = await page(browser)
    expect(refused.status).toBe(303)
    expect(refused.location).toBe('/login')
    expect(refused.res.headers.get('set-cookie')).toMatch(/^tis_session=; Max-Age=0; Path=\//)
  }

  it('keeps a random id in the cookie, never the access token, and only its digest in the database', async () => {
    const user = await client().createUser()
    const browser = await signIn(dashboard(), user.token, {
      'X-Forwarded-For': '192.0.2.44',
      'User-Agent': 'suite-browser/1.0',
    })
    expect(browser.setCookie).toMatch(
      /^tis_session=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Strict$/,
    )
    const secret = browser.cookie.slice('tis_session='.length)
    expect(browser.setCookie).not.toContain(user.token)
    expect(browser.setCookie).not.toContain(user.token.slice('tis_user_'.length))
    const [row, ...more] = await rows(user.id)
    expect(more).toEqual([])
    expect(row).toMatchObject({
      digest: sha256(secret),
      token_digest: sha256(user.token),
      user_agent: 'suite-browser/1.0',
      ip: '192.0.2.44',
    })
    expect(JSON.stringify(row)).not.toContain(secret)
    const created = (row!['created_at'] as Date).getTime()
    expect((row!['idle_expires_at'] as Date).getTime() - created).toBe(7 * DAY * 1000)
    expect((row!['expires_at'] as Date).getTime() - created).toBe(30 * DAY * 1000)
    const listed = await client().api('GET', '/api/v1/users/me/sessions', { token: user.token })
    expect(listed.status).toBe(200)
    expect(listed.body.sessions).toEqual([
      expect.objectContaining({ user_agent: 'suite-browser/1.0', ip: '192.0.2.44' }),
    ])
    expect(listed.text).not.toContain(secret)
  })

  it('refuses an access token, or anything but a live session id, as the cookie', async () => {
    const user = await client().createUser()
    for (const cookie of [`tis_session=${user.token}`, `tis_session=${'A'.repeat(43)}`]) {
      const res = await page({ cookie })
      expect(res.status).toBe(303)
      expect(res.location).toBe('/login')
    }
  })

  it('writes last_seen_at at most once a minute, not on every page', async () => {
    const { user, browser } = await signedInUser()
    const [before] = await rows(user.id)
    expect((await page(browser)).status).toBe(200)
    expect((await page(browser)).status).toBe(200)
    expect((await rows(user.id))[0]?.['last_seen_at']).toEqual(before?.['last_seen_at'])
    harness().advance(120)
    expect((await page(browser)).status).toBe(200)
    const [after] = await rows(user.id)
    const moved = (after!['last_seen_at'] as Date).getTime()
    expect(moved).toBeGreaterThanOrEqual((before!['last_seen_at'] as Date).getTime() + 120_000)
    expect((after!['idle_expires_at'] as Date).getTime()).toBe(moved + 7 * DAY * 1000)
  })

  it('refuses a cookie copied before sign-out after it', async () => {
    const { user, browser } = await signedInUser()
    const copy = { cookie: browser.cookie }
    const out = await submitForm(dashboard(), '/logout', browser)
    expect(out.status).toBe(303)
    expect(out.headers.get('location')).toBe('/login')
    await expectSignedOut(copy)
    expect(await rows(user.id)).toEqual([])
  })

  it('ends a session idle for 7 days (server clock), clearing the cookie', async () => {
    const { user, browser } = await signedInUser()
    harness().advance(6 * DAY)
    expect((await page(browser)).status).toBe(200)
    harness().advance(6 * DAY)
    expect((await page(browser)).status).toBe(200)
    harness().advance(7 * DAY + 60)
    await expectSignedOut(browser)
    expect(await rows(user.id)).toEqual([])
  })

  it('ends a busy session 30 days after sign-in (absolute expiry)', async () => {
    const { browser } = await signedInUser()
    for (let day = 6; day <= 24; day += 6) {
      harness().advance(6 * DAY)
      expect((await page(browser)).status, `day ${day}`).toBe(200)
    }
    harness().advance(6 * DAY + 60)
    await expectSignedOut(browser)
  })

  it('prunes expired sessions of every user at the next sign-in', async () => {
    const stale = await signedInUser()
    harness().advance(7 * DAY + 60)
    expect(await rows(stale.user.id)).toHaveLength(1)
    await signedInUser()
    expect(await rows(stale.user.id)).toEqual([])
  })

  describe('sign out everywhere', () => {
    it('through the API ends every browser of the user; the token keeps working', async () => {
      const { user, browser } = await signedInUser()
      const other = await signIn(dashboard(), user.token)
      const bystander = await signedInUser()
      const ended = await client().api('DELETE', '/api/v1/users/me/sessions', {
        token: user.token,
      })
      expect(ended).toMatchObject({ status: 200, body: { sessions_ended: 2 } })
      await expectSignedOut(browser)
      await expectSignedOut(other)
      expect((await page(bystander.browser)).status).toBe(200)
      expect((await client().api('GET', '/api/v1/projects', { token: user.token })).status).toBe(
        200,
      )
    })

    it("from the account page ends another browser's session, and this one", async () => {
      const { user, browser } = await signedInUser()
      const other = await signIn(dashboard(), user.token)
      const account = await page(browser, '/account')
      // Both sessions listed, this one marked.
      expect(account.text.match(/<tr><td>/g)).toHaveLength(2)
      expect(account.text.match(/>this browser</g)).toHaveLength(1)
      expect(account.text).toContain('Sign out everywhere')
      const res = await submitForm(dashboard(), '/account/sign-out-everywhere', browser)
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/login')
      await expectSignedOut(other)
      await expectSignedOut(browser)
    })
  })

  describe('access-token rotation', () => {
    it('through the API: a new token once, the old one 401 at once, every session ended', async () => {
      const { user, browser } = await signedInUser()
      const rotated = await client().api('POST', '/api/v1/users/me/token', { token: user.token })
      expect(rotated.status).toBe(201)
      expect(rotated.body).toEqual({
        user: { id: user.id, email: user.email, admin: false },
        access_token: expect.stringMatching(/^tis_user_[0-9a-f]{48}$/),
        sessions_ended: 1,
      })
      const fresh = rotated.body.access_token as string
      const projects = (token: string) => client().api('GET', '/api/v1/projects', { token })
      expect((await projects(user.token)).status).toBe(401)
      expect((await projects(fresh)).status).toBe(200)
      await expectSignedOut(browser)
      await expect(signIn(dashboard(), user.token)).rejects.toThrow(/sign-in failed: 401/)
      expect((await page(await signIn(dashboard(), fresh))).status).toBe(200)
    })

    it('from the account page: shown once, this browser signed in again, the others out', async () => {
      const { user, browser } = await signedInUser()
      const other = await signIn(dashboard(), user.token)
      const res = await submitForm(dashboard(), '/account/token', browser)
      expect(res.status).toBe(200)
      const html = await res.text()
      const fresh = /<pre id="new-token-value">(tis_user_[0-9a-f]{48})<\/pre>/.exec(html)?.[1]
      expect(fresh).toBeDefined()
      const setCookie = res.headers.get('set-cookie') ?? ''
      expect(setCookie).toMatch(/^tis_session=[A-Za-z0-9_-]{43};/)
      expect(setCookie).not.toContain(fresh)
      const renewed = { cookie: setCookie.split(';')[0]! }
      expect(renewed.cookie).not.toBe(browser.cookie)
      await expectSignedOut(browser)
      await expectSignedOut(other)
      const again = await page(renewed, '/account')
      expect(again.status).toBe(200)
      expect(again.text).not.toContain(fresh)
      const projects = (token: string) => client().api('GET', '/api/v1/projects', { token })
      expect((await projects(user.token)).status).toBe(401)
      expect((await projects(fresh!)).status).toBe(200)
    })
  })

  it('refuses a form carrying another session’s CSRF token', async () => {
    const { user, browser } = await signedInUser()
    const other = await signIn(dashboard(), user.token)
    expect(other.csrf).not.toBe(browser.csrf)
    const forged = await submitForm(dashboard(), '/account/sign-out-everywhere', {
      cookie: browser.cookie,
      csrf: other.csrf,
    })
    expect(forged.status).toBe(403)
    expect((await page(browser)).status).toBe(200)
  })

  it.each([
    ['GET', '/api/v1/users/me/sessions'],
    ['DELETE', '/api/v1/users/me/sessions'],
    ['POST', '/api/v1/users/me/token'],
  ])('%s %s answers 401 without a valid access token', async (method, path) => {
    for (const token of [undefined, 'tis_user_unknown', 'tis_not_a_user_token']) {
      const r = await client().api(method, path, token === undefined ? {} : { token })
      expect(r).toMatchObject({ status: 401, body: { error: 'Unauthorized' } })
    }
  })
}
