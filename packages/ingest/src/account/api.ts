import {
  ERROR_BODIES,
  type RotatedToken,
  type Session,
  type SessionList,
  type SessionsEnded,
} from '@tis/schema'
import { type EngineRequest, type EngineResponse, json } from '../http'
import { generateToken, sha256Hex, TOKEN_PREFIXES } from '../ids'
import type { Authenticated, ManagementOperation, ProjectAccess } from '../management/access'
import type { SessionRecord, SessionStore } from '../ports'
import {
  createSessions,
  DEFAULT_SESSION_SETTINGS,
  type SessionSettings,
  type Sessions,
} from './sessions'

/**
 * The signed-in user's own account: dashboard sessions (the lifecycle hosts drive, and the
 * `/api/v1/users/me/…` operations) and rotation of the access token.
 */
export interface AccountApi extends Sessions {
  /** `GET /api/v1/users/me/sessions` — the user's live sessions, most recently seen first. */
  listSessions: ManagementOperation
  /** `DELETE /api/v1/users/me/sessions` — signs the user out everywhere. */
  endSessions: ManagementOperation
  /**
   * `POST /api/v1/users/me/token` — replaces every access token of the user with a new one,
   * answered once; the old ones stop working at once and every session of the user ends.
   */
  rotateToken: ManagementOperation
}

/** Options of {@link createAccountApi}. */
export interface AccountApiOptions {
  /** Sessions, and the rotation of a user's access tokens. */
  readonly store: SessionStore
  /** Who is signed in (see `createProjectAccess`). */
  readonly access: Pick<ProjectAccess, 'authenticate'>
  /**
   * Session lifetimes; each field defaults as in {@link DEFAULT_SESSION_SETTINGS} (7 days idle,
   * 30 days absolute, `last_seen_at` written at most once a minute).
   */
  readonly settings?: Partial<SessionSettings>
  /** @default () => new Date() */
  readonly now?: () => Date
}

type Auth = Authenticated

/** Creates the account operations over a store. */
export function createAccountApi(options: AccountApiOptions): AccountApi {
  const { store, access } = options
  const now = options.now ?? (() => new Date())
  const settings = { ...DEFAULT_SESSION_SETTINGS, ...options.settings }
  const sessions = createSessions({ store, access, settings, now })

  const authed =
    (fn: (request: EngineRequest, auth: Auth) => Promise<EngineResponse>): ManagementOperation =>
    async (request) => {
      const auth = await access.authenticate(request)
      return auth ? fn(request, auth) : json(401, ERROR_BODIES.unauthorized)
    }

  const sessionJson = (s: SessionRecord): Session => ({
    id: s.id,
    created_at: s.createdAt.toISOString(),
    last_seen_at: s.lastSeenAt.toISOString(),
    expires_at: sessions.endsAt(s).toISOString(),
    user_agent: s.userAgent,
    ip: s.ip,
  })

  return {
    ...sessions,

    listSessions: authed(async (_request, { user }) => {
      const at = now()
      const live = (await store.listUserSessions(user.id, at)).filter(
        (s) => sessions.endsAt(s).getTime() > at.getTime(),
      )
      return json(200, { sessions: live.map(sessionJson) } satisfies SessionList)
    }),

    endSessions: authed(async (_request, { user }) => {
      const ended = await store.deleteUserSessions(user.id)
      return json(200, { sessions_ended: ended } satisfies SessionsEnded)
    }),

    rotateToken: authed(async (_request, { user, admin }) => {
      const token = generateToken(TOKEN_PREFIXES.user)
      const ended = await store.rotateUserToken(user.id, sha256Hex(token), now())
      return json(201, {
        user: { id: user.id, email: user.email, admin },
        access_token: token,
        sessions_ended: ended,
      } satisfies RotatedToken)
    }),
  }
}
