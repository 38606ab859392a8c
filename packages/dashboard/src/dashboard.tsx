/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { type Context, Hono, type MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { SCRIPT, STYLESHEET } from './assets'
import type { DashboardApp, DashboardEnv, Deps } from './context'
import { type DashboardEngine, PageError } from './engine-client'
import { registerAccount } from './pages/account'
import { registerActivity } from './pages/activity'
import { registerIssue, renderIssuePage } from './pages/issue'
import { registerIssueAssign } from './pages/issue-assign'
import { registerIssueBulk } from './pages/issue-bulk'
import { registerIssueDiscussion } from './pages/issue-discussion'
import { registerIssueIgnore } from './pages/issue-ignore'
import { registerIssues, renderInbox } from './pages/issues'
import { registerLogin } from './pages/login'
import { registerMonitor } from './pages/monitor'
import { registerMonitorsAndDeployments } from './pages/monitors'
import { registerPerformance } from './pages/performance'
import { registerProjects } from './pages/projects'
import { registerRelease } from './pages/release'
import { registerReleases } from './pages/releases'
import { registerSettings } from './pages/settings'
import { renderPage } from './render'
import {
  type CookieSettings,
  CSRF_FIELD,
  clearSession,
  sameToken,
  sessionContext,
  sessionCookie,
} from './session'

export type { DashboardEngine } from './engine-client'

/** Options of {@link createDashboard}. */
export interface DashboardOptions {
  /** The engine (`createEngine`), or the parts of it the pages call. */
  readonly engine: DashboardEngine
  /**
   * The path the host mounts the app at, prefixed to every link and the cookie path; mount with
   * `host.route(basePath || '/', createDashboard({ engine, basePath }))`. @default ''
   */
  readonly basePath?: string
  /**
   * Marks the cookies `Secure`: set it whenever browsers reach the dashboard over HTTPS, also
   * behind a proxy that terminates TLS. @default false
   */
  readonly secureCookies?: boolean
  /**
   * The client address of a request, recorded with each new session for the user's list of
   * sessions (the tis server passes its `X-Forwarded-For`-aware resolver). @default none recorded
   */
  readonly clientIp?: (c: Context) => string | undefined
  /** The clock of relative times and 24-hour windows. @default () => new Date() */
  readonly now?: () => Date
}

/** Largest form body the dashboard reads, in bytes. */
export const MAX_FORM_BYTES = 64 * 1024

// Inline code is forbidden: the script and stylesheet are files of the app.
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
}

const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next()
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.header(name, value)
  if (c.res.headers.get('content-type')?.startsWith('text/html'))
    c.header('Cache-Control', 'no-store')
}

/**
 * Signed-in pages: the session cookie must name a live session (else the cookie is cleared and
 * the browser sent to the sign-in page), and a POST must carry the session's CSRF token (else
 * 403) in a form of at most {@link MAX_FORM_BYTES}.
 */
function requireSession(deps: Deps, cookies: CookieSettings): MiddlewareHandler<DashboardEnv> {
  const tooLarge = bodyLimit({
    maxSize: MAX_FORM_BYTES,
    onError: (c) => c.text('form too large', 413),
  })
  return async (c, next) => {
    // `/projects/*` also matches `/projects`: run once per request (a second run would read the
    // form's body again, which is already consumed).
    if (c.get('session') !== undefined) return next()
    const secret = sessionCookie(c)
    const resolved = secret ? await deps.engine.account.resolveSession(secret) : null
    if (!secret || !resolved) {
      if (secret) clearSession(c, cookies)
      return c.redirect(`${deps.base}/login`, 303)
    }
    const session = await sessionContext(secret, resolved, new URL(c.req.url).origin)
    c.set('session', session)
    if (c.req.method !== 'POST') return next()
    return tooLarge(c, async () => {
      const form = await c.req.parseBody()
      const sent = form[CSRF_FIELD]
      if (typeof sent !== 'string' || !sameToken(sent, session.csrf)) {
        throw new PageError(
          403,
          'The form is out of date (CSRF check failed). Reload the page and try again.',
        )
      }
      await next()
    })
  }
}

/**
 * The dashboard: a Hono app of server-rendered pages over the engine's read and management
 * operations, called in-process as the signed-in user. Mount it in any Hono host.
 */
export function createDashboard(options: DashboardOptions): Hono<DashboardEnv> {
  const base = (options.basePath ?? '').replace(/\/+$/, '')
  const deps: Deps = {
    engine: options.engine,
    base,
    now: options.now ?? (() => new Date()),
    clientIp: options.clientIp,
  }
  const cookies: CookieSettings = { path: base || '/', secure: options.secureCookies ?? false }
  const app: DashboardApp = new Hono<DashboardEnv>()

  const signedIn = ['/logout', '/account', '/account/*', '/projects', '/projects/*']
  for (const path of ['/', '/login', ...signedIn, '/assets/*']) {
    app.use(path, securityHeaders)
  }
  app.get('/assets/dashboard.css', (c) =>
    c.body(STYLESHEET, 200, {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
    }),
  )
  app.get('/assets/dashboard.js', (c) =>
    c.body(SCRIPT, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
    }),
  )
  app.get('/', (c) => c.redirect(`${base}${sessionCookie(c) ? '/projects' : '/login'}`, 303))

  const guard = requireSession(deps, cookies)
  for (const path of signedIn) app.use(path, guard)

  registerLogin(app, deps, cookies)
  registerAccount(app, deps, cookies)
  registerProjects(app, deps)
  registerIssues(app, deps)
  registerIssueBulk(app, deps, (c, refused, status) => renderInbox(c, deps, refused, status))
  registerIssue(app, deps)
  registerIssueIgnore(app, deps, (c, refused, status) => renderIssuePage(c, deps, refused, status))
  registerIssueAssign(app, deps)
  registerIssueDiscussion(app, deps)
  registerActivity(app, deps)
  registerPerformance(app, deps)
  registerMonitorsAndDeployments(app, deps)
  registerMonitor(app, deps)
  registerReleases(app, deps)
  registerRelease(app, deps)
  registerSettings(app, deps)

  app.onError((error, c) => {
    if (!PageError.is(error)) throw error
    const title = error.status === 404 ? 'Not found' : 'Something went wrong'
    return renderPage(c, deps, {
      title,
      status: error.status,
      body: (
        <>
          <h1>{title}</h1>
          <p class="alert" role="alert">
            {error.message}
          </p>
          <p>
            <a href={`${base}/projects`}>Back to projects</a>
          </p>
        </>
      ),
    })
  })
  return app
}
