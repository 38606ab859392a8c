/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { getCookie } from 'hono/cookie'
import type { DashboardApp, DashboardContext, Deps } from '../context'
import { renderPage } from '../render'
import {
  type CookieSettings,
  CSRF_FIELD,
  clearSession,
  LOGIN_CSRF_COOKIE,
  loginCsrf,
  sameToken,
  sessionClient,
  sessionCookie,
  setSession,
} from '../session'

function loginPage(c: DashboardContext, deps: Deps, csrf: string, error?: string, status = 200) {
  return renderPage(c, deps, {
    title: 'Sign in',
    status,
    body: (
      <>
        <h1>Sign in to tis</h1>
        {error && (
          <p class="alert" role="alert" id="login-error">
            {error}
          </p>
        )}
        <form class="stack" method="post" action={`${deps.base}/login`}>
          <input type="hidden" name={CSRF_FIELD} value={csrf} />
          <label for="token">
            User access token
            <input
              id="token"
              name="token"
              type="password"
              autocomplete="off"
              required
              spellcheck={false}
              aria-describedby={error ? 'login-error' : undefined}
              aria-invalid={error ? 'true' : undefined}
            />
          </label>
          <button type="submit">Sign in</button>
        </form>
        <p class="muted">
          The access token (<code>tis_user_…</code>) was printed when your account was created (
          <code>{'tis users create <email>'}</code>); the first administrator's on the server's
          first run.
        </p>
      </>
    ),
  })
}

/**
 * `GET/POST /login` (double-submit CSRF cookie; a valid access token opens a server-side session)
 * and `POST /logout` (session CSRF; deletes the session, so a copy of the cookie stops working).
 */
export function registerLogin(app: DashboardApp, deps: Deps, cookies: CookieSettings): void {
  app.get('/login', (c) => {
    if (sessionCookie(c)) return c.redirect(`${deps.base}/projects`, 303)
    return loginPage(c, deps, loginCsrf(c, cookies))
  })
  app.post('/login', async (c) => {
    const form = await c.req.parseBody()
    const expected = getCookie(c, LOGIN_CSRF_COOKIE) ?? ''
    const sent = form[CSRF_FIELD]
    if (typeof sent !== 'string' || !sameToken(sent, expected)) {
      return loginPage(c, deps, loginCsrf(c, cookies), 'The form expired. Please try again.', 403)
    }
    const token = typeof form['token'] === 'string' ? form['token'].trim() : ''
    const opened = token
      ? await deps.engine.account.signIn(token, sessionClient(c, deps.clientIp))
      : null
    if (!opened) return loginPage(c, deps, expected, 'That access token is not valid.', 401)
    setSession(c, opened, cookies)
    return c.redirect(`${deps.base}/projects`, 303)
  })
  app.post('/logout', async (c) => {
    await deps.engine.account.signOut(c.get('session').secret)
    clearSession(c, cookies)
    return c.redirect(`${deps.base}/login`, 303)
  })
}
