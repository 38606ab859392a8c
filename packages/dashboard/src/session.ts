import type { OpenedSession, ResolvedSession, SessionClient } from '@tis/ingest'
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { Deps, Session } from './context'
import { type Behind, createCall } from './engine-client'

/**
 * The session cookie: a random session id (256 bits, base64url) whose SHA-256 digest the store
 * keeps — never the user's access token (HttpOnly, SameSite=Strict).
 */
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
 * The CSRF token of a session: HMAC-SHA256 of a fixed label keyed by the secret session id.
 * Stateless (any instance, any restart computes the same one), different for every session, and
 * unguessable without the id, which only the HttpOnly cookie carries.
 */
export async function csrfToken(sessionId: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(sessionId),
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

/**
 * Sets the session cookie to a new session's secret id. It lasts until the session's absolute
 * expiry, so a browser restart keeps the user signed in; the server refuses it earlier once the
 * session is idle, signed out or ended.
 */
export function setSession(c: Context, opened: OpenedSession, settings: CookieSettings): void {
  const { createdAt, expiresAt } = opened.session
  const maxAge = Math.floor((expiresAt.getTime() - createdAt.getTime()) / 1000)
  setCookie(c, SESSION_COOKIE, opened.secret, { ...attributes(settings), maxAge })
}

/** The secret session id of the request's session cookie, if any. */
export function sessionCookie(c: Context): string | undefined {
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

/**
 * The request's {@link Session} for a resolved (or just opened) session and its secret id;
 * `origin` is the page's (see `createCall`).
 */
export async function sessionContext(
  secret: string,
  resolved: ResolvedSession,
  origin?: string,
): Promise<Session> {
  const behind: Behind = { lag: null }
  return {
    secret,
    id: resolved.session.id,
    email: resolved.user.email,
    admin: resolved.admin,
    csrf: await csrfToken(secret),
    behind,
    call: createCall(resolved.user, behind, origin),
  }
}

/** Where a sign-in comes from: the browser's User-Agent and, when the host says, its address. */
export function sessionClient(c: Context, clientIp: Deps['clientIp']): SessionClient {
  return { userAgent: c.req.header('user-agent'), ip: clientIp?.(c) }
}
