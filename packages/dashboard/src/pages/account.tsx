/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { Session as SessionJson } from '@tis/schema'
import type { DashboardApp, DashboardContext, Deps } from '../context'
import { ok } from '../engine-client'
import { relativeTime } from '../format'
import { CsrfField, type Html, Time } from '../layout'
import { renderPage } from '../render'
import {
  type CookieSettings,
  clearSession,
  sessionClient,
  sessionContext,
  setSession,
} from '../session'

/** The sessions table: one row per live session, this browser's marked. */
function SessionRows({
  sessions,
  current,
  now,
}: {
  sessions: SessionJson[]
  current: string
  now: Date
}): Html {
  return (
    <table>
      <caption class="skip">Your sessions</caption>
      <thead>
        <tr>
          <th scope="col">Browser</th>
          <th scope="col">Address</th>
          <th scope="col">Signed in</th>
          <th scope="col">Last seen</th>
          <th scope="col">Ends</th>
        </tr>
      </thead>
      <tbody>
        {sessions.map((s) => (
          <tr>
            <td>
              {s.user_agent ?? <span class="muted">unknown</span>}
              {s.id === current && (
                <>
                  {' '}
                  <span class="badge s-ok">this browser</span>
                </>
              )}
            </td>
            <td>{s.ip ?? <span class="muted">—</span>}</td>
            <td>
              <Time iso={s.created_at} text={relativeTime(s.created_at, now)} />
            </td>
            <td>
              <Time iso={s.last_seen_at} text={relativeTime(s.last_seen_at, now)} />
            </td>
            <td>
              <Time iso={s.expires_at} text={relativeTime(s.expires_at, now)} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** The account page; `token` is a just-rotated access token, shown this once. */
async function accountPage(c: DashboardContext, deps: Deps, token?: string) {
  const session = c.get('session')
  const { sessions } = ok<{ sessions: SessionJson[] }>(
    await session.call(deps.engine.account.listSessions),
  )
  return renderPage(c, deps, {
    title: 'Your account',
    body: (
      <>
        <h1>Your account</h1>
        <p>
          Signed in as <strong>{session.email}</strong>
          {session.admin ? ' (administrator)' : ''}.
        </p>
        {token && (
          <section class="notice" aria-labelledby="new-token">
            <h2 id="new-token">Your new access token</h2>
            <p>
              Copy it now: it is shown only this once. The old token no longer works and every other
              session was signed out; this browser stays signed in.
            </p>
            <pre id="new-token-value">{token}</pre>
            <button type="button" data-copy="new-token-value">
              Copy the token
            </button>
          </section>
        )}
        <h2 id="sessions">Sessions</h2>
        <SessionRows sessions={sessions} current={session.id} now={deps.now()} />
        <form class="inline" method="post" action={`${deps.base}/account/sign-out-everywhere`}>
          <CsrfField csrf={session.csrf} />
          <button type="submit" class="danger">
            Sign out everywhere
          </button>
        </form>
        <p class="muted">
          Ends every session of your account, this one included. Your access token keeps working for
          the CLI and the API: replace it below if it may have leaked.
        </p>
        <h2 id="access-token">Access token</h2>
        <p>
          Your access token (<code>tis_user_…</code>) signs you in here and authenticates the{' '}
          <code>tis</code> CLI and the API. Replacing it shows the new token once; the old one stops
          working at once, and every session ends except this browser's.
        </p>
        <form class="inline" method="post" action={`${deps.base}/account/token`}>
          <CsrfField csrf={session.csrf} />
          <button type="submit">Replace my access token</button>
        </form>
      </>
    ),
  })
}

/**
 * `GET /account` (the user's sessions), `POST /account/sign-out-everywhere` (ends every session,
 * this one included) and `POST /account/token` (rotates the access token, shows the new one once
 * and signs this browser in again with it).
 */
export function registerAccount(app: DashboardApp, deps: Deps, cookies: CookieSettings): void {
  app.get('/account', (c) => accountPage(c, deps))

  app.post('/account/sign-out-everywhere', async (c) => {
    ok(await c.get('session').call(deps.engine.account.endSessions))
    clearSession(c, cookies)
    return c.redirect(`${deps.base}/login`, 303)
  })

  app.post('/account/token', async (c) => {
    const { access_token: token } = ok<{ access_token: string }>(
      await c.get('session').call(deps.engine.account.rotateToken),
    )
    const opened = await deps.engine.account.signIn(token, sessionClient(c, deps.clientIp))
    if (!opened) {
      // Rotated again elsewhere in between: the new token is already gone.
      clearSession(c, cookies)
      return c.redirect(`${deps.base}/login`, 303)
    }
    setSession(c, opened, cookies)
    c.set('session', await sessionContext(opened.secret, opened))
    return accountPage(c, deps, token)
  })
}
