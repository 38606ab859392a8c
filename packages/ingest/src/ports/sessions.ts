import type { UserRecord } from './management-records'

// The storage port of dashboard sessions. The engine decides every policy — ids,
// expiry, how often `last_seen_at` moves, pruning — and the store only reads and writes rows.

/** A dashboard session as stored: never its secret id, only what describes it. */
export interface SessionRecord {
  /** A public handle (UUID) for lists; it cannot be used to sign in. */
  readonly id: string
  readonly userId: string
  readonly createdAt: Date
  /** Last request seen, moved at most once per touch interval. */
  readonly lastSeenAt: Date
  /** When the session ends unless used again: `last_seen_at` + idle timeout, capped at `expiresAt`. */
  readonly idleExpiresAt: Date
  /** When the session ends however busy it is (absolute expiry). */
  readonly expiresAt: Date
  /** The browser's `User-Agent` at sign-in (truncated), for "your sessions". */
  readonly userAgent: string | null
  /** The client address at sign-in, for "your sessions". */
  readonly ip: string | null
}

/** A session and the user it belongs to. */
export interface SessionWithUser {
  readonly session: SessionRecord
  readonly user: UserRecord
}

/** What {@link SessionStore.createSession} stores. */
export interface NewSession extends SessionRecord {
  /** SHA-256 hex of the secret session id (the cookie's value); the lookup key. */
  readonly digest: string
  /**
   * SHA-256 hex of the access token the user signed in with. The session belongs to that token:
   * when the token is deleted (rotation), the session goes with it.
   */
  readonly tokenDigest: string
}

/** Dashboard sessions, shared by every server instance on the database. */
export interface SessionStore {
  /**
   * Stores a session, unless its access token no longer exists (replaced by a rotation that
   * committed meanwhile): then resolves `null` and stores nothing.
   */
  createSession(input: NewSession): Promise<SessionRecord | null>
  /** The session with this digest and its user, expired or not; `null` when there is none. */
  findSession(digest: string): Promise<SessionWithUser | null>
  /**
   * Moves `last_seen_at` to `at` and `idle_expires_at` to `idleExpiresAt`, unless another
   * request already moved it to `at` or later.
   */
  touchSession(digest: string, at: Date, idleExpiresAt: Date): Promise<void>
  /** Deletes one session; `false` when there was none. */
  deleteSession(digest: string): Promise<boolean>
  /** Deletes every session of the user; resolves how many there were. */
  deleteUserSessions(userId: string): Promise<number>
  /** The user's sessions with `idle_expires_at` after `at`, most recently seen first. */
  listUserSessions(userId: string, at: Date): Promise<readonly SessionRecord[]>
  /** Deletes every session with `idle_expires_at` at or before `at`; resolves how many. */
  deleteExpiredSessions(at: Date): Promise<number>
  /**
   * Replaces every access token of the user with one new token and deletes all of the user's
   * sessions, in one transaction. Resolves how many sessions ended.
   */
  rotateUserToken(userId: string, tokenDigest: string, at: Date): Promise<number>
}
