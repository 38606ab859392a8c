import { createHash } from 'node:crypto'
import { spanIdentity } from '../dedupe'
import type { SqlExecutor } from '../executor'
import { toJsonParam } from '../json-param'
import { unknownProject } from '../project-check'
import { encodeOp, type LoggedOp } from './log-record'

/** What acceptance found out about one logged op. */
export type AppendOutcome =
  | { readonly fresh: true; readonly seq: number }
  /** Its idempotency key was stored already, by this record (`projectId` says whose). */
  | {
      readonly fresh: false
      readonly projectId: string
      readonly id: string
      readonly seq: number | null
    }

// One statement per batch: number every row, claim the idempotency keys (sorted, so concurrent
// batches take them in one order), append the rows whose key was free (or that have none).
// A key another transaction holds uncommitted makes ON CONFLICT wait for it, so of two
// concurrent appends of one key exactly one is fresh. It also counts the batch's projects that
// do not exist: the log has no foreign key (a check per row cost a sixth of the statement),
// projects are never deleted (only archived), so one look-up per distinct project suffices;
// with one, it writes nothing at all. The statement is atomic on its own: it needs no
// transaction around it.
const APPEND = /* sql */ `
with input as (
  select * from jsonb_to_recordset($1::text::jsonb) as r(
    k int, project_id uuid, id uuid, kind text, key uuid, received_at timestamptz, record jsonb)
), unknown_projects as (
  select count(*)::int as missing from (select distinct project_id from input) i
   where not exists (select 1 from projects p where p.id = i.project_id)
), numbered as (
  select input.*, nextval('ingest_log_seq') as seq from input
), claimed as (
  insert into ingest_keys (kind, key, project_id, id, seq)
  select kind, key, project_id, id, case when kind = 'check_in' then null else seq end
    from numbered where key is not null and (select missing from unknown_projects) = 0
   order by key, kind
  on conflict (key, kind) do nothing
  returning key, kind
), appended as (
  insert into ingest_log (seq, project_id, id, kind, received_at, record)
  select n.seq, n.project_id, n.id, n.kind, n.received_at, n.record
    from numbered n
   where (select missing from unknown_projects) = 0
     and (n.key is null or (n.key, n.kind) in (select key, kind from claimed))
  returning seq
)
select n.k, n.seq, (n.key is null or (n.key, n.kind) in (select key, kind from claimed)) as fresh,
       (select missing from unknown_projects) as unknown_projects
  from numbered n`

// A separate statement, so it sees keys that a concurrent batch committed while we waited.
const FIND_KEYS = /* sql */ `
select k.key::text as key, k.kind, k.project_id::text as project_id, k.id::text as id, k.seq
  from ingest_keys k
  join unnest($1::uuid[], $2::text[]) as wanted(key, kind)
    on k.key = wanted.key and k.kind = wanted.kind`

interface AppendedRow {
  k: number
  seq: number
  fresh: boolean
  unknown_projects: number
}
interface KeyRow {
  key: string
  kind: string
  project_id: string
  id: string
  seq: number | null
}

/**
 * The id the engine derives for a span from (project, trace_id, span_id) — `uuidFromParts` of
 * @tis/ingest: a UUID v8 from the SHA-256 of the NUL-joined parts.
 */
export function spanKey(projectId: string, traceId: string, spanId: string): string {
  const parts = ['span', projectId.toLowerCase(), traceId, spanId].join('\u0000')
  const bytes = createHash('sha256').update(parts, 'utf8').digest().subarray(0, 16)
  bytes[6] = 0x80 | (bytes[6]! & 0x0f)
  bytes[8] = 0x80 | (bytes[8]! & 0x3f)
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * The idempotency key of an op whose id may repeat (`dedupe`): a span's (trace_id, span_id) in
 * its project when it has both, so a retry without the `event_id` is still a repeat; else the
 * op's id. `null` for an op with a fresh engine-made id.
 */
function keyOf(op: LoggedOp): string | null {
  if (!op.dedupe) return null
  const span = spanIdentity(op)
  return span ? spanKey(op.projectId, span.traceId, span.spanId) : op.id.toLowerCase()
}

/**
 * Appends ops to the ingest log and says, for each op in order, whether it was appended (its
 * `seq`) or repeats a stored key. A repeat of an earlier op of the same batch is answered like
 * that op's first occurrence. The append is one statement, atomic by itself: `tx` may be a
 * transaction (with other writes) or the pool (it commits on its own).
 */
export async function appendToLog(
  tx: SqlExecutor,
  ops: readonly LoggedOp[],
): Promise<AppendOutcome[]> {
  const first = new Map<string, number>()
  const repeats = new Map<number, number>()
  const rows: object[] = []
  ops.forEach((op, k) => {
    const key = keyOf(op)
    const earlier = key === null ? undefined : first.get(`${op.type}:${key}`)
    if (earlier !== undefined) {
      repeats.set(k, earlier)
      return
    }
    if (key !== null) first.set(`${op.type}:${key}`, k)
    rows.push({
      k,
      project_id: op.projectId,
      id: op.id,
      kind: op.type,
      key,
      received_at: op.receivedAt,
      record: encodeOp(op),
    })
  })
  const outcomes: AppendOutcome[] = new Array(ops.length)
  const taken: number[] = []
  if (rows.length > 0) {
    const appended = await tx.query<AppendedRow>(APPEND, [toJsonParam(rows)])
    // The statement wrote nothing; inside a caller's transaction, this rolls the rest back.
    if ((appended[0]?.unknown_projects ?? 0) > 0) {
      throw unknownProject()
    }
    for (const row of appended) {
      if (row.fresh) outcomes[row.k] = { fresh: true, seq: Number(row.seq) }
      else taken.push(row.k)
    }
  }
  if (taken.length > 0) {
    const found = await tx.query<KeyRow>(FIND_KEYS, [
      taken.map((k) => keyOf(ops[k]!)!),
      taken.map((k) => ops[k]!.type),
    ])
    const byKey = new Map(found.map((r) => [`${r.kind}:${r.key.toLowerCase()}`, r]))
    for (const k of taken) {
      const stored = byKey.get(`${ops[k]!.type}:${keyOf(ops[k]!)!}`)
      if (!stored) throw new Error('an idempotency key was taken but cannot be read back')
      outcomes[k] = {
        fresh: false,
        projectId: stored.project_id,
        id: stored.id,
        seq: stored.seq === null ? null : Number(stored.seq),
      }
    }
  }
  for (const [k, earlier] of repeats) {
    const original = outcomes[earlier]!
    const op = ops[earlier]!
    outcomes[k] = original.fresh
      ? { fresh: false, projectId: op.projectId, id: op.id, seq: original.seq }
      : original
  }
  return outcomes
}
