/** Sends one request to the dashboard: `fetch` against a server, or a Hono app's `request`. */
export type Fetcher = (path: string, init?: RequestInit) => Response | Promise<Response>

/** A browser signed in to the dashboard: its cookie header and the session's CSRF token. */
export interface DashboardSession {
  /** `tis_session=…`, as a browser sends it back. */
  readonly cookie: string
  /** The `_csrf` value of the session's forms. */
  readonly csrf: string
  /** The whole `Set-Cookie` header of the sign-in. */
  readonly setCookie: string
}

/** A fetcher of a listening server (redirects are not followed, as the tests look at them). */
export const serverFetcher =
  (baseUrl: string): Fetcher =>
  (path, init = {}) =>
    fetch(`${baseUrl}${path}`, { ...init, redirect: 'manual' })

const formField = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1]

/**
 * Signs in through the sign-in form as a browser does (its CSRF cookie, then the token), and reads
 * the new session's CSRF token from the account page.
 */
export async function signIn(
  fetcher: Fetcher,
  token: string,
  headers: Record<string, string> = {},
): Promise<DashboardSession> {
  const form = await fetcher('/login', { headers })
  const loginCookie = form.headers.get('set-cookie')?.split(';')[0] ?? ''
  const loginCsrf = formField(await form.text()) ?? ''
  const res = await fetcher('/login', {
    method: 'POST',
    body: new URLSearchParams({ _csrf: loginCsrf, token }),
    headers: {
      ...headers,
      cookie: loginCookie,
      'content-type': 'application/x-www-form-urlencoded',
    },
  })
  const setCookie = res.headers.get('set-cookie') ?? ''
  if (res.status !== 303 || !setCookie.startsWith('tis_session=')) {
    throw new Error(`sign-in failed: ${res.status} ${await res.text()}`)
  }
  const cookie = setCookie.split(';')[0]!
  const page = await fetcher('/account', { headers: { ...headers, cookie } })
  const csrf = formField(await page.text())
  if (page.status !== 200 || !csrf) throw new Error(`the account page answered ${page.status}`)
  return { cookie, csrf, setCookie }
}

/** A page as the signed-in browser gets it. */
export async function openPage(fetcher: Fetcher, path: string, session: { cookie: string }) {
  const res = await fetcher(path, { headers: { cookie: session.cookie } })
  return { status: res.status, location: res.headers.get('location'), res, text: await res.text() }
}

/** Submits a dashboard form with the session's CSRF token. */
export async function submitForm(
  fetcher: Fetcher,
  path: string,
  session: Pick<DashboardSession, 'cookie' | 'csrf'>,
  form: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  return fetcher(path, {
    method: 'POST',
    body: new URLSearchParams({ _csrf: session.csrf, ...form }),
    headers: {
      ...headers,
      cookie: session.cookie,
      'content-type': 'application/x-www-form-urlencoded',
    },
  })
}

/**
 * Signs each access token in once, through the sign-in form of the dashboard `fetcher` reaches,
 * and hands out that browser's session (cookie and CSRF token) from then on.
 */
export function sessionsOf(fetcher: Fetcher): (token: string) => Promise<DashboardSession> {
  const sessions = new Map<string, Promise<DashboardSession>>()
  return (token) => {
    let session = sessions.get(token)
    if (!session) {
      session = signIn(fetcher, token)
      sessions.set(token, session)
    }
    return session
  }
}
