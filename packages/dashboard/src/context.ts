import type { Context, Hono } from 'hono'
import type { Behind, Call, DashboardEngine } from './engine-client'

/** The signed-in user of a request. */
export interface Session {
  /** The secret session id from the cookie (keys the CSRF token; ends the session on sign-out). */
  readonly secret: string
  /** The session's public id (marks "this browser" in the list of sessions). */
  readonly id: string
  readonly email: string
  readonly admin: boolean
  /** The CSRF token every form of this session carries. */
  readonly csrf: string
  /** Filled by {@link Session.call} when an answer came before the projection caught up. */
  readonly behind: Behind
  readonly call: Call
}

/** The dashboard's Hono environment. */
export interface DashboardEnv {
  Variables: { session: Session }
}

/** What the route modules share. */
export interface Deps {
  readonly engine: DashboardEngine
  /** Prefix of every link, e.g. `''` or `/dashboard`. */
  readonly base: string
  /** The clock of "N minutes ago" and the 24-hour windows. */
  readonly now: () => Date
  /** The client address recorded with a new session, when the host knows it. */
  readonly clientIp?: ((c: Context) => string | undefined) | undefined
}

/** The dashboard's Hono app type. */
export type DashboardApp = Hono<DashboardEnv>
/** A request context of the dashboard. */
export type DashboardContext = Context<DashboardEnv>
