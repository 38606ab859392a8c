import { mergeSessionState, type SessionState, stateOf, type WriteOp } from '@tis/ingest'
import type { SessionUpdate } from '@tis/schema'

type SessionOp = Extract<WriteOp, { type: 'session' }>

// The session rows of a batch (docs/release-health.md): updates folded per session with the
// status machine of @tis/ingest (the statement merges the fold with the stored state by the
// same rule), aggregate buckets as they are, and the releases every record names.

/** A session's state after the batch's updates of it; the statement merges it with the stored one. */
export interface SessionStateRow {
  project_id: string
  sid: string
  release: string
  environment: string
  /** The minute it started: where it is counted. */
  minute: string
  did: string | null
  counted: boolean
  outcome: number
  terminal: boolean
  seq: number | null
  errors: number
  updated_at: Date
}

/** Sessions an aggregate counted, added to their minute as they are. */
export interface SessionBucketRow {
  project_id: string
  release: string
  environment: string
  minute: string
  did: string | null
  healthy: number
  errored: number
  abnormal: number
  crashed: number
}

/** A (release, environment) seen, and when. */
export interface ReleaseRow {
  project_id: string
  version: string
  environment: string
  first_seen_at: string
  last_seen_at: string
}

/** The session and release rows of one batch. */
export interface SessionPlan {
  readonly states: Map<string, SessionStateRow>
  readonly buckets: SessionBucketRow[]
  readonly releases: Map<string, ReleaseRow>
}

/** An empty plan. */
export const emptySessionPlan = (): SessionPlan => ({
  states: new Map(),
  buckets: [],
  releases: new Map(),
})

const minuteOf = (iso: string) => {
  const t = Date.parse(iso)
  return new Date(t - (((t % 60_000) + 60_000) % 60_000)).toISOString()
}

/** Notes that `version` was seen in `environment` at `at`. */
export function addRelease(
  plan: SessionPlan,
  projectId: string,
  version: string | null | undefined,
  environment: string | null | undefined,
  at: Date | string,
): void {
  if (typeof version !== 'string' || version.length === 0 || version.length > 200) return
  const env = environment ?? 'production'
  const iso = typeof at === 'string' ? at : at.toISOString()
  const key = `${projectId.toLowerCase()}\u0000${version}\u0000${env}`
  const row = plan.releases.get(key)
  if (!row) {
    plan.releases.set(key, {
      project_id: projectId,
      version,
      environment: env,
      first_seen_at: iso,
      last_seen_at: iso,
    })
    return
  }
  if (iso < row.first_seen_at) row.first_seen_at = iso
  if (iso > row.last_seen_at) row.last_seen_at = iso
}

const asState = (row: SessionStateRow): SessionState => ({
  counted: row.counted,
  outcome: row.outcome as SessionState['outcome'],
  terminal: row.terminal,
  did: row.did,
  seq: row.seq,
  errors: row.errors,
})

function addUpdate(plan: SessionPlan, op: SessionOp, update: SessionUpdate): void {
  const key = `${op.projectId.toLowerCase()}\u0000${update.sid}`
  const row = plan.states.get(key)
  const merged = mergeSessionState(row ? asState(row) : undefined, stateOf(update))
  plan.states.set(key, {
    project_id: op.projectId,
    sid: update.sid,
    // The first update's attributes: a session keeps the release and minute it started in.
    release: row?.release ?? update.release,
    environment: row?.environment ?? update.environment,
    minute: row?.minute ?? minuteOf(update.started),
    did: merged.did,
    counted: merged.counted,
    outcome: merged.outcome,
    terminal: merged.terminal,
    seq: merged.seq,
    errors: merged.errors,
    updated_at: op.receivedAt,
  })
}

/** Adds a session op's rows to the plan. */
export function addSession(plan: SessionPlan, op: SessionOp): void {
  const s = op.session
  addRelease(plan, op.projectId, s.release, s.environment, op.receivedAt)
  if (s.kind === 'update') {
    addUpdate(plan, op, s)
    return
  }
  for (const b of s.buckets) {
    plan.buckets.push({
      project_id: op.projectId,
      release: s.release,
      environment: s.environment,
      minute: b.started,
      did: b.did,
      healthy: b.exited,
      errored: b.errored,
      abnormal: b.abnormal,
      crashed: b.crashed,
    })
  }
}
