import type { Context, Hono } from 'hono'
import type { Call, DashboardEngine } from './engine-client'

/** The signed-in user of a request. */
export interface Session {
  readonly token: string
  readonly email: string
  readonly admin: boolean
  /** The CSRF token every form of this session carries. */
  readonly csrf: string
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
}

/** The dashboard's Hono app type. */
export type DashboardApp = Hono<DashboardEnv>
/** A request context of the dashboard. */
export type DashboardContext = Context<DashboardEnv>
