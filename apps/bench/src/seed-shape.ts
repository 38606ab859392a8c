// What the bulk seeding of the read and retention benches writes for one project: its size and
// the fixed vocabularies its records draw on, and the deterministic draws behind them.
import { createHash } from 'node:crypto'

/** What one project gets. */
export interface SeedShape {
  /** Distinguishes the deterministic content (issues, traces, sessions) of each project. */
  readonly tag: string
  readonly events: number
  readonly issues: number
  readonly spans: number
  /** Days the events and spans cover, ending now. @default 7 */
  readonly days?: number
}

const ROUTES = [
  'orders',
  'orders/:id',
  'checkout',
  'cart',
  'users/:id',
  'products',
  'products/:id',
  'search',
  'login',
  'invoices/:id',
]
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']
/** 50 transaction names: 5 methods over 10 routes. */
export const TRANSACTION_NAMES = METHODS.flatMap((m) => ROUTES.map((r) => `${m} /api/${r}`))
/** Metric names; db.query is half of the metric events. */
export const METRIC_NAMES = ['db.query', 'http.client', 'cache.hit_ratio', 'queue.depth']
/** Monitor slugs of the check_in events (in production and staging: 10 monitors). */
export const MONITOR_SLUGS = [
  'nightly-backup',
  'hourly-sync',
  'email-digest',
  'cleanup',
  'billing-run',
]
/** Releases, oldest first; each covers an equal part of the seeded days. */
export const RELEASES = ['1.40.0', '1.41.0', '1.42.0', '1.43.0', '1.44.0', '1.45.0'].map(
  (v) => `api@${v}`,
)
/** Environments of the deployments (and, weighted 70/20/10, of the events). */
export const ENVIRONMENTS = ['production', 'staging', 'development']
/** Log messages; one in twelve contains "timeout". */
export const LOG_TEMPLATES = [
  'request completed',
  'cache miss for key',
  'user signed in',
  'payment authorised',
  'upstream request timeout, retrying',
  'job enqueued',
  'email sent',
  'slow query detected',
  'feature flag evaluated',
  'webhook delivered',
  'session refreshed',
  'inventory reserved',
]
const EXCEPTIONS = ['TypeError', 'RangeError', 'DatabaseError', 'TimeoutError', 'ValidationError']
const REASONS = [
  'Cannot read properties of undefined',
  'Index out of range',
  'connection reset',
  'deadline exceeded',
  'invalid input',
]

/** The title (and message) of issue `n`: `"<Exception>: <reason> (site n)"`. */
export const issueTitle = (n: number) =>
  `${EXCEPTIONS[n % 5]}: ${REASONS[Math.floor(n / 5) % 5]} (site ${n})`

/** `n` of a title made by {@link issueTitle}, else `null`. */
export const issueNumber = (title: string) => {
  const m = /\(site (\d+)\)$/.exec(title)
  return m ? Number(m[1]) : null
}

/** 32 hex digits of `text` (md5): trace and session ids of the seeded records. */
export const hex32 = (text: string) => createHash('md5').update(text).digest('hex')

/** A seeded pseudo-random source in [0, 1) (mulberry32): the same tag draws the same data. */
export function randomSource(seed: string): () => number {
  let a = Number.parseInt(hex32(seed).slice(0, 8), 16)
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** A standard normal draw (Box–Muller) from `random`. */
export const normal = (random: () => number) =>
  Math.sqrt(-2 * Math.log(Math.max(random(), 1e-12))) * Math.cos(2 * Math.PI * random())

/** Seconds the shape's records cover. */
export const spanSeconds = (s: SeedShape) => (s.days ?? 7) * 86_400
