import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'

/** The session cookie: it holds the user's access token (HttpOnly, SameSite=Strict). */
export const SESSION_COOKIE = 'tis_session'
/** The sign-in form's double-submit CSRF cookie (before there is a session). */
export const LOGIN_CSRF_COOKIE = 'tis_login_csrf'
/** The form field every state-changing form carries. */
export const CSRF_FIELD = '_csrf'

const encoder = new TextEncoder()

function base64url(bytes: ArrayBuffer | Uint8Array): string {
  let text = ''
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte)
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/**
 * The CSRF token of a session: HMAC-SHA256 of a fixed label keyed by the user's access token.
 * Stateless (any instance, any restart computes the same one) and unguessable without the token,
 * which only the HttpOnly cookie carries.
 */
export async function csrfToken(accessToken: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(accessToken),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  return base64url(await crypto.subtle.sign('HMAC', key, encoder.encode('tis-dashboard-csrf')))
}

/** A random token for the sign-in form's double-submit cookie. */
export function randomToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(24)))
}

/** Compares two strings in time independent of where they differ. */
export function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length || a.length === 0) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

/** Cookie attributes shared by both cookies. */
export interface CookieSettings {
  readonly path: string
  readonly secure: boolean
}

const attributes = (settings: CookieSettings) =>
  ({ path: settings.path, httpOnly: true, sameSite: 'Strict', secure: settings.secure }) as const

/** Starts a session (a browser session cookie: it ends with the browser). */
export function setSession(c: Context, token: string, settings: CookieSettings): void {
  setCookie(c, SESSION_COOKIE, token, attributes(settings))
}

/** The access token of the request's session cookie, if any. */
export function sessionToken(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE) || undefined
}

/** Ends the session. */
export function clearSession(c: Context, settings: CookieSettings): void {
  deleteCookie(c, SESSION_COOKIE, attributes(settings))
}

/** The sign-in form's CSRF token: the cookie's, or a new one set now. */
export function loginCsrf(c: Context, settings: CookieSettings): string {
  const existing = getCookie(c, LOGIN_CSRF_COOKIE)
  if (existing) return existing
  const token = randomToken()
  setCookie(c, LOGIN_CSRF_COOKIE, token, { ...attributes(settings), maxAge: 3600 })
  return token
}
