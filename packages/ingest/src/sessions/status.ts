import type { SessionStatus, SessionUpdate } from '@tis/schema'

// The status machine of release health (docs/release-health.md), Sentry's semantics: a session
// counts once, on its `init` update; it ends healthy, errored, abnormal or crashed; a terminal
// status (anything but `ok`) is final, so later updates change nothing but the count. The
// merge is idempotent (a retried update counts once) and order-independent for what SDKs send
// (errors only grow, `ok` precedes the terminal status), so updates can be folded in any order.

/** How a session ended, as a number: a worse outcome is a larger one. */
export const SESSION_OUTCOME = { healthy: 0, errored: 1, abnormal: 2, crashed: 3 } as const

/** One of {@link SESSION_OUTCOME}'s values. */
export type SessionOutcome = (typeof SESSION_OUTCOME)[keyof typeof SESSION_OUTCOME]

/** Whether a status ends the session: every status but `ok`. */
export const isTerminalStatus = (status: SessionStatus): boolean => status !== 'ok'

/**
 * The outcome of one update: `crashed` and `abnormal` as sent; `errored`, `unhandled` (Relay:
 * "an unhandled error that did not crash") or any `errors` make it errored; else healthy.
 */
export function outcomeOf(update: Pick<SessionUpdate, 'status' | 'errors'>): SessionOutcome {
  switch (update.status) {
    case 'crashed':
      return SESSION_OUTCOME.crashed
    case 'abnormal':
      return SESSION_OUTCOME.abnormal
    case 'errored':
    case 'unhandled':
      return SESSION_OUTCOME.errored
    default:
      return update.errors > 0 ? SESSION_OUTCOME.errored : SESSION_OUTCOME.healthy
  }
}

/** What the store keeps of one session between its updates. */
export interface SessionState {
  /** Its `init` update arrived: the session is counted (in the minute it started). */
  readonly counted: boolean
  readonly outcome: SessionOutcome
  /** A terminal status arrived: the outcome is final. */
  readonly terminal: boolean
  readonly did: string | null
  readonly seq: number | null
  readonly errors: number
}

/** The state one update alone describes. */
export function stateOf(update: SessionUpdate): SessionState {
  return {
    counted: update.init,
    outcome: outcomeOf(update),
    terminal: isTerminalStatus(update.status),
    did: update.did,
    seq: update.seq,
    errors: update.errors,
  }
}

const larger = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.max(a, b)

/**
 * The state after `next` (an update's state, or a fold of several) follows `state`: counted
 * once either is; a final outcome stays as it is, else the worse one wins; the first known user
 * is kept. Associative and idempotent; the store applies the same rule in SQL.
 */
export function mergeSessionState(
  state: SessionState | undefined,
  next: SessionState,
): SessionState {
  if (state === undefined) return next
  return {
    counted: state.counted || next.counted,
    outcome: state.terminal
      ? state.outcome
      : (Math.max(state.outcome, next.outcome) as SessionOutcome),
    terminal: state.terminal || next.terminal,
    did: state.did ?? next.did,
    seq: larger(state.seq, next.seq),
    errors: state.terminal ? state.errors : Math.max(state.errors, next.errors),
  }
}

/** The sessions a state adds to its minute, by outcome: one when counted, else none. */
export interface OutcomeCounts {
  healthy: number
  errored: number
  abnormal: number
  crashed: number
}

const OUTCOME_NAMES = ['healthy', 'errored', 'abnormal', 'crashed'] as const

/** The name of an outcome, as the aggregates count it. */
export const outcomeName = (outcome: SessionOutcome): keyof OutcomeCounts => OUTCOME_NAMES[outcome]!

/**
 * What moving from `before` to `after` changes in the session's minute: -1 for the outcome it
 * was counted under, +1 for the one it is counted under now (nothing while uncounted).
 */
export function outcomeDelta(before: SessionState | undefined, after: SessionState): OutcomeCounts {
  const delta: OutcomeCounts = { healthy: 0, errored: 0, abnormal: 0, crashed: 0 }
  if (before?.counted) delta[outcomeName(before.outcome)] -= 1
  if (after.counted) delta[outcomeName(after.outcome)] += 1
  return delta
}
