import autocannon from 'autocannon'
import { type CpuMeter, cpuMeter } from './cpu'
import { envelopePath, sentryHeaders } from './envelope-bodies'
import { CONNECTIONS } from './ingest-load'
import { caughtUp } from './projection-lag'
import { EVENTS_PER_SESSION, planBodies, type SessionMode } from './sessions-bodies'

// One run of the release-health ingest comparison: a fixed number of Sentry error envelopes
// (plan A) or the same number with one session envelope after every fifth (plan B), sent by
// autocannon as fast as answered, then the wait until the projection has caught up. Processor
// time is metered from the first request until the projection caught up, so the projection's
// work behind the load counts in full.

/** Error events of every measured run. */
export const EVENTS = Number(process.env['BENCH_SESSIONS_EVENTS'] ?? 30_000)

/**
 * Plan A: events only; plan B: a session envelope after every fifth event; plan C: a session
 * item in every fifth event's envelope.
 */
export type Plan = 'A' | 'B' | 'C'

const MODES: Record<Plan, SessionMode> = { A: 'none', B: 'own', C: 'along' }

/** The figures of one run. */
export interface SessionRun {
  readonly plan: Plan
  readonly events: number
  readonly sessions: number
  /** Server and PostgreSQL processor µs per event / per record (events + session items). */
  readonly usPerEvent: number
  readonly usPerRecord: number
  readonly serverUsPerRecord: number
  readonly pgUsPerRecord: number | null
  /** Records acknowledged per second of the load. */
  readonly rowsPerSecond: number
  /** Records per second from the first request until the projection caught up. */
  readonly sustainedPerSecond: number
  readonly catchUpMs: number
  readonly p99Ms: number
  /** Answers other than 2xx, errors and timeouts. */
  readonly failed: number
}

/** Where the runs go: the server, its project's DSN, the processes to meter. */
export interface SessionTarget {
  readonly url: string
  readonly dsn: string
  readonly serverPid: number
  readonly postgresPids: (() => number[]) | null
}

/** Sends `requests` bodies of `plan` to the target and waits for the projection. */
async function send(target: SessionTarget, plan: Plan, requests: number) {
  const bodies = planBodies(target.dsn, MODES[plan])
  const result = await autocannon({
    url: `${target.url}${envelopePath(target.dsn)}`,
    method: 'POST',
    connections: CONNECTIONS,
    amount: requests,
    headers: sentryHeaders(target.dsn),
    requests: [{ setupRequest: (request) => ({ ...request, body: bodies.next() }) }],
  })
  return { result, made: bodies.made }
}

/** Requests of a plan that carry {@link EVENTS} events. */
const requestsOf = (plan: Plan, events: number) =>
  plan === 'B' ? events + Math.floor(events / EVENTS_PER_SESSION) : events

/** An unmetered run of plan B with a fifth of the events: JIT, pools, caches. */
export async function warmUp(target: SessionTarget): Promise<void> {
  await send(target, 'B', requestsOf('B', Math.ceil(EVENTS / 5)))
  await caughtUp(target.url)
}

/** One metered run of `plan`. */
export async function sessionRun(target: SessionTarget, plan: Plan): Promise<SessionRun> {
  const meters: CpuMeter[] = [
    cpuMeter(() => [target.serverPid]),
    ...(target.postgresPids ? [cpuMeter(target.postgresPids)] : []),
  ]
  for (const meter of meters) meter.start()
  const started = performance.now()
  const { result, made } = await send(target, plan, requestsOf(plan, EVENTS))
  const loadMs = performance.now() - started
  const catchUpMs = await caughtUp(target.url)
  const [server = Number.NaN, postgres] = meters.map((m) => m.stop())
  const failed = result.non2xx + result.errors + result.timeouts
  // autocannon may make a body or two it never sends; the answered requests are what counts.
  const answered = result['2xx']
  const sessions =
    plan === 'C' ? Math.floor(answered / EVENTS_PER_SESSION) : Math.min(made.session, answered)
  const events = plan === 'C' ? answered : answered - sessions
  const records = events + sessions
  const total = server + (postgres ?? 0)
  const us = (seconds: number, n: number) => Math.round((seconds * 1e6) / n)
  return {
    plan,
    events,
    sessions,
    usPerEvent: us(total, events),
    usPerRecord: us(total, records),
    serverUsPerRecord: us(server, records),
    pgUsPerRecord: postgres === undefined ? null : us(postgres, records),
    rowsPerSecond: Math.round(records / (loadMs / 1000)),
    sustainedPerSecond: Math.round(records / ((loadMs + catchUpMs) / 1000)),
    catchUpMs: Math.round(catchUpMs),
    p99Ms: result.latency.p99,
    failed,
  }
}
