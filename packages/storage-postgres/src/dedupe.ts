import type { WriteOp, WriteResult } from '@tis/ingest'
import type { SqlExecutor } from './executor'
import { toJsonParam } from './json-param'

// Read-model look-ups of ops whose id may already be stored: the projection's fallback for a
// round that met an id already in the read model (`planDedupe`, `log/project.ts`), the span
// identity the log's idempotency keys are made of, and the all-or-nothing test of an append.
// Acceptance itself finds repeats by key in `ingest_keys` (`log/append.ts`).

type Kind = 'event' | 'span' | 'check_in'

const text = (v: unknown): string | null =>
  v === null || v === undefined ? null : typeof v === 'string' ? v : String(v)

/** The table an op's id lives in; deployments are upserts by natural key, never deduplicated. */
function kindOf(op: WriteOp): Kind | null {
  switch (op.type) {
    case 'event':
      return 'event'
    case 'span':
      return 'span'
    case 'check_in':
      return 'check_in'
    default:
      return null
  }
}

/** A span's (trace_id, span_id), top level else context; `null` unless both are present. */
export function spanIdentity(op: WriteOp): { traceId: string; spanId: string } | null {
  if (op.type !== 'span') return null
  const e = op.event
  const traceId = text(e.trace_id ?? e.context.trace_id)
  const spanId = text(e.span_id ?? e.context.span_id)
  return traceId !== null && spanId !== null ? { traceId, spanId } : null
}

// One row per op to check; a match is the stored record with that id (any project, so another
// project's id is a conflict, not a silent duplicate), or for a span the same project's span with
// the same trace and span ids (through the (project_id, md5(trace_id)) index).
const FIND_STORED = /* sql */ `
with input as (
  select * from jsonb_to_recordset($1::text::jsonb) as r(
    k int, kind text, id uuid, project_id uuid, trace_id text, span_id text)
)
select input.k, f.id::text as id, f.project_id::text as project_id, f.legacy_id
  from input cross join lateral (
    select e.id, e.project_id, e.legacy_id from events e
     where input.kind = 'event' and e.id = input.id
    union all
    select s.id, s.project_id, s.legacy_id from spans s
     where input.kind = 'span' and s.id = input.id
    union all
    select s.id, s.project_id, s.legacy_id from spans s
     where input.kind = 'span' and input.trace_id is not null and s.project_id = input.project_id
       and md5(s.trace_id) = md5(input.trace_id) and s.trace_id = input.trace_id
       and s.span_id = input.span_id
    union all
    select c.id, c.project_id, null::bigint from check_ins c
     where input.kind = 'check_in' and c.id = input.id
    limit 1
  ) f`

interface StoredRow {
  k: number
  id: string
  project_id: string
  legacy_id: number | null
}

/** How each op of a batch is to be answered before anything is written. */
export interface DedupePlan {
  /** Ops to write, as indexes into the batch. */
  readonly fresh: readonly number[]
  /** Ops answered from a stored record (its `existing`), by batch index. */
  readonly known: ReadonlyMap<number, WriteResult>
  /** Ops repeating an earlier op of the batch: batch index → index of that op. */
  readonly repeats: ReadonlyMap<number, number>
}

/** Looks up the batch's `dedupe` ops (one statement) and sorts the batch into fresh and known. */
export async function planDedupe(tx: SqlExecutor, batch: readonly WriteOp[]): Promise<DedupePlan> {
  const everything = batch.map((_, i) => i)
  if (!batch.some((op) => op.dedupe))
    return { fresh: everything, known: new Map(), repeats: new Map() }

  const repeats = new Map<number, number>()
  const firstByKey = new Map<string, number>()
  const lookups: object[] = []
  batch.forEach((op, k) => {
    const kind = kindOf(op)
    if (!op.dedupe || kind === null) return
    const project = op.projectId.toLowerCase()
    const span = spanIdentity(op)
    const keys = [`${kind}\u0000${op.id.toLowerCase()}`]
    if (span) keys.push(`trace\u0000${project}\u0000${span.traceId}\u0000${span.spanId}`)
    const earlier = keys.map((key) => firstByKey.get(key)).find((i) => i !== undefined)
    if (earlier !== undefined) {
      repeats.set(k, earlier)
      return
    }
    for (const key of keys) firstByKey.set(key, k)
    lookups.push({
      k,
      kind,
      id: op.id,
      project_id: op.projectId,
      trace_id: span?.traceId ?? null,
      span_id: span?.spanId ?? null,
    })
  })

  const known = new Map<number, WriteResult>()
  if (lookups.length > 0) {
    const rows = await tx.query<StoredRow>(FIND_STORED, [toJsonParam(lookups)])
    for (const row of rows) {
      const existing = { projectId: row.project_id, id: row.id, legacyId: row.legacy_id }
      known.set(row.k, { id: row.id, legacyId: row.legacy_id, existing })
    }
  }
  // A repeat of a known op is answered like it.
  const fresh = everything.filter((i) => !known.has(i) && !repeats.has(i))
  return { fresh, known, repeats }
}

/** Whether a known op's record is stored by another project (what `allOrNothing` refuses). */
export function storedElsewhere(op: WriteOp, result: WriteResult): boolean {
  return (
    result.existing !== undefined &&
    result.existing.projectId.toLowerCase() !== op.projectId.toLowerCase()
  )
}
