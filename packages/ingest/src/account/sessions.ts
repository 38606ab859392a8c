import { randomBytes } from 'node:crypto'
import { sha256Hex, uuidv7 } from '../ids'
import type { ProjectAccess } from '../management/access'
import type { SessionRecord, SessionStore, UserRecord } from '../ports'

/** How long dashboard sessions live (`SERVICE_SESSION_IDLE_SECONDS`, `…_MAX_AGE_SECONDS`). */
export interface SessionSettings {
  /** Seconds a session survives without a request (idle expiry). @default 604800 (7 days) */
  readonly idleSeconds: number
  /** Seconds a session lives however busy it is (absolute expiry). @default 2592000 (30 days) */
  readonly maxAgeSeconds: number
  /**
   * Least seconds between two writes of `last_seen_at` for one session, so a page view is not a
   * write; capped at half the idle timeout. @default 60
   */
  readonly touchIntervalSeconds: number
}

/** Grafana's defaults: 7 days idle, 30 days absolute (docs/security.md says why). */
export const DEFAULT_SESSION_SETTINGS: SessionSettings = {
  idleSeconds: 7 * 24 * 3600,
  maxAgeSeconds: 30 * 24 * 3600,
  touchIntervalSeconds: 60,
}

/** Random bytes of a session id: 256 bits, 43 base64url characters. */
const SECRET_BYTES = 32
const SECRET = /^[A-Za-z0-9_-]{43}$/
const MAX_USER_AGENT = 512
const MAX_IP = 64

/** Where a sign-in comes from, kept for the user's list of sessions. */
export interface SessionClient {
  readonly userAgent?: string | undefined
  readonly ip?: string | undefined
}

/** A session the user is signed in with. */
export interface ResolvedSession {
  readonly session: SessionRecord
  readonly user: UserRecord
  readonly admin: boolean
}

/** A new session: `secret` is the cookie's value, returned only here and never stored. */
export interface OpenedSession extends ResolvedSession {
  readonly secret: string
}

/** Options of {@link createSessions}. */
export interface SessionsOptions {
  /** Where sessions are kept. */
  readonly store: SessionStore
  /** Checks the access token a user signs in with. */
  readonly access: Pick<ProjectAccess, 'authenticate'>
  readonly settings: SessionSettings
  readonly now: () => Date
}

/** The session lifecycle the dashboard (or any host) drives: sign in, resolve, sign out. */
export interface Sessions {
  /** Opens a session for a valid user access token; `null` for any other token. */
  signIn(accessToken: string, client?: SessionClient): Promise<OpenedSession | null>
  /**
   * The live session of a secret id, its `last_seen_at` moved forward (throttled); `null` when
   * unknown or expired (an expired one is deleted).
   */
  resolveSession(secret: string): Promise<ResolvedSession | null>
  /** Deletes the session of a secret id; `false` when there was none. */
  signOut(secret: string): Promise<boolean>
  /** When a session ends under the current settings (the earlier of idle and absolute expiry). */
  endsAt(session: SessionRecord): Date
}

const clip = (value: string | undefined, max: number) =>
  value === undefined || value === '' ? null : value.slice(0, max)

/**
 * Creates the session lifecycle over a store. Expiry is evaluated with the current settings as
 * well as the stored times, so shortening a setting applies to existing sessions at once, while
 * lengthening one never extends them.
 */
export function createSessions(options: SessionsOptions): Sessions {
  const { store, access, settings, now } = options
  const idleMs = settings.idleSeconds * 1000
  const maxMs = settings.maxAgeSeconds * 1000
  const touchMs = Math.min(settings.touchIntervalSeconds * 1000, idleMs / 2)

  const absoluteEnd = (s: SessionRecord) =>
    Math.min(s.expiresAt.getTime(), s.createdAt.getTime() + maxMs)
  const endsAt = (s: SessionRecord) =>
    new Date(Math.min(absoluteEnd(s), s.idleExpiresAt.getTime(), s.lastSeenAt.getTime() + idleMs))

  return {
    endsAt,

    async signIn(accessToken, client = {}) {
      const auth = await access.authenticate({
        headers: { authorization: `Bearer ${accessToken}` },
      })
      if (!auth) return null
      const at = now()
      // Pruning here keeps the table small without a timer; a concurrent prune on another
      // instance deletes the same rows, which is harmless.
      await store.deleteExpiredSessions(at)
      const secret = randomBytes(SECRET_BYTES).toString('base64url')
      const expiresAt = new Date(at.getTime() + maxMs)
      const session = await store.createSession({
        id: uuidv7(at.getTime()),
        userId: auth.user.id,
        createdAt: at,
        lastSeenAt: at,
        idleExpiresAt: new Date(Math.min(at.getTime() + idleMs, expiresAt.getTime())),
        expiresAt,
        userAgent: clip(client.userAgent, MAX_USER_AGENT),
        ip: clip(client.ip, MAX_IP),
        digest: sha256Hex(secret),
        tokenDigest: sha256Hex(accessToken),
      })
      return session ? { secret, session, user: auth.user, admin: auth.admin } : null
    },

    async resolveSession(secret) {
      if (!SECRET.test(secret)) return null
      const digest = sha256Hex(secret)
      const found = await store.findSession(digest)
      if (!found) return null
      const at = now()
      let { session } = found
      if (at.getTime() >= endsAt(session).getTime()) {
        await store.deleteSession(digest)
        return null
      }
      if (at.getTime() - session.lastSeenAt.getTime() >= touchMs) {
        const idleExpiresAt = new Date(Math.min(at.getTime() + idleMs, absoluteEnd(session)))
        await store.touchSession(digest, at, idleExpiresAt)
        session = { ...session, lastSeenAt: at, idleExpiresAt }
      }
      const auth = await access.authenticate({ headers: {}, user: found.user })
      return auth ? { session, user: auth.user, admin: auth.admin } : null
    },

    async signOut(secret) {
      if (!SECRET.test(secret)) return false
      return store.deleteSession(sha256Hex(secret))
    },
  }
}
