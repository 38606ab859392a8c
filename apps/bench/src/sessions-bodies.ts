import { randomUUID } from 'node:crypto'
import { envelopeBodies } from './envelope-bodies'
import { SENTRY_SDK } from './sentry-bench-event'

// The bodies of the release-health ingest comparison: Sentry envelopes as an SDK in session mode
// sends them beside its errors. Each event is its own envelope; plan B adds, after every fifth
// event, an envelope with one session item: an update of one of a few hundred live sessions (its
// `init` update, then its terminal one, then the slot starts a new session), and every tenth
// session item a `sessions` aggregate instead (request mode: a minute's counts of one user).
// Plan C puts the same session items in every fifth event's envelope instead.

/** Live sessions at once (slots): each alternates between its `init` and its terminal update. */
export const LIVE_SESSIONS = 300
/** Releases the sessions are spread over. */
export const SESSION_RELEASES = ['api@2.0.0', 'api@2.1.0', 'api@2.2.0']
/** Distinct users (`did`) of the sessions. */
const USERS = 1_000
/** Events per session item of plan B. */
export const EVENTS_PER_SESSION = 5

/** What one body of a plan carries. */
export type BodyKind = 'event' | 'session'

/** A body maker that counts what it made. */
export interface PlanBodies {
  next(): string
  readonly made: Record<BodyKind, number>
}

/** What ends an envelope's header line. */
const HEADER_END = '\n'

const envelope = (itemType: 'session' | 'sessions', payload: object) =>
  [{ sent_at: new Date().toISOString(), sdk: SENTRY_SDK }, { type: itemType }, payload]
    .map((j) => JSON.stringify(j))
    .join('\n')

/** The terminal status of session `n`: mostly exited, some errored, crashed or abnormal. */
function terminal(n: number): { status: string; errors: number } {
  const m = n % 100
  if (m < 2) return { status: 'crashed', errors: 1 }
  if (m < 3) return { status: 'abnormal', errors: 0 }
  if (m < 8) return { status: 'exited', errors: 1 + (m % 3) }
  return { status: 'exited', errors: 0 }
}

/**
 * Session envelope bodies: slot `n % LIVE_SESSIONS` sends the `init` update of a new session, and
 * the next time its terminal update (`duration`, `seq` and `timestamp` advanced); one body in
 * ten is a `sessions` aggregate of one user's minute instead.
 */
export function sessionBodies(): () => string {
  const live: Array<{ sid: string; did: string; started: string; attrs: object } | undefined> = []
  let n = 0
  return () => {
    n++
    const attrs = {
      release: SESSION_RELEASES[n % SESSION_RELEASES.length],
      environment: n % 4 === 0 ? 'staging' : 'production',
    }
    const did = `user-${(n * 7919) % USERS}`
    if (n % 10 === 0) {
      const started = new Date().toISOString()
      const bucket = { started, did, exited: 1 + (n % 3), errored: n % 7 === 0 ? 1 : 0 }
      return envelope('sessions', { aggregates: [bucket], attrs })
    }
    const slot = n % LIVE_SESSIONS
    const open = live[slot]
    const now = new Date()
    if (!open) {
      const session = { sid: randomUUID(), did, started: now.toISOString(), attrs }
      live[slot] = session
      return envelope('session', {
        ...session,
        init: true,
        seq: 0,
        timestamp: session.started,
        status: 'ok',
        errors: 0,
      })
    }
    live[slot] = undefined
    const duration = (now.getTime() - Date.parse(open.started)) / 1000
    return envelope('session', {
      ...open,
      init: false,
      seq: 1,
      timestamp: now.toISOString(),
      duration,
      ...terminal(n),
    })
  }
}

/**
 * How a plan sends session items: not at all (`none`), each in an envelope of its own after every
 * {@link EVENTS_PER_SESSION} events (`own`), or in the envelope of every fifth event, as an SDK
 * sends a session's update with the error that changed it (`along`).
 */
export type SessionMode = 'none' | 'own' | 'along'

/** The bodies of one plan: envelopes of the bench's Sentry error (a fresh event id each). */
export function planBodies(dsn: string, mode: SessionMode): PlanBodies {
  const events = envelopeBodies(dsn, 'error')
  const sessions = sessionBodies()
  const made: Record<BodyKind, number> = { event: 0, session: 0 }
  let i = 0
  return {
    made,
    next() {
      i++
      if (mode === 'own' && i % (EVENTS_PER_SESSION + 1) === 0) {
        made.session++
        return sessions()
      }
      made.event++
      if (mode !== 'along' || i % EVENTS_PER_SESSION !== 0) return events()
      made.session++
      // The session envelope's items after its header line.
      const session = sessions()
      return `${events()}\n${session.slice(session.indexOf(HEADER_END) + 1)}`
    },
  }
}
