// The disk figures of the retention bench: the database's files and the tables a retention pass
// deletes from, in bytes, at each step.
import type { Sql } from 'postgres'

/** The sizes at one step, in bytes (`events rows`: a count). */
export interface DiskStep {
  readonly step: string
  readonly database: number
  /** `events` with its indexes and TOAST. */
  readonly events: number
  readonly eventsHeap: number
  readonly eventsIndexes: number
  readonly eventsRows: number
  readonly spans: number
  readonly checkIns: number
  readonly ingestKeys: number
  /** The ingest log's partitions (HTTP ingest during the windows writes it; dropped once read). */
  readonly ingestLog: number
}

/** Measures every figure of {@link DiskStep} now. */
export async function diskStep(sql: Sql, step: string): Promise<DiskStep> {
  const [r] = await sql<Array<Omit<DiskStep, 'step'>>>`
    select pg_database_size(current_database())::float8 as database,
      pg_total_relation_size('events')::float8 as events,
      pg_relation_size('events')::float8 as "eventsHeap",
      pg_indexes_size('events')::float8 as "eventsIndexes",
      (select count(*) from events)::float8 as "eventsRows",
      pg_total_relation_size('spans')::float8 as spans,
      pg_total_relation_size('check_ins')::float8 as "checkIns",
      pg_total_relation_size('ingest_keys')::float8 as "ingestKeys",
      (select coalesce(sum(pg_total_relation_size(inhrelid)), 0) from pg_inherits
        where inhparent = 'ingest_log'::regclass)::float8 as "ingestLog"`
  if (!r) throw new Error('no sizes')
  return { step, ...r }
}

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10

/** The steps as a table: MB each, and the change of the database from the step before. */
export function diskTable(steps: readonly DiskStep[]) {
  return steps.map((s, i) => ({
    step: s.step,
    'database MB': mb(s.database),
    'Δ database MB': i === 0 ? '' : mb(s.database - (steps[i - 1]?.database ?? 0)),
    'database − log MB': mb(s.database - s.ingestLog),
    'events MB': mb(s.events),
    'events heap MB': mb(s.eventsHeap),
    'events indexes MB': mb(s.eventsIndexes),
    'events rows': s.eventsRows,
    'spans MB': mb(s.spans),
    'check_ins MB': mb(s.checkIns),
    'ingest_keys MB': mb(s.ingestKeys),
    'ingest log MB': mb(s.ingestLog),
  }))
}

/** A step's database and events sizes in MB, for a figure's note. */
export const diskNote = (s: DiskStep) =>
  `${s.step}: database ${mb(s.database)} MB, events ${mb(s.events)} MB (${s.eventsRows.toLocaleString('en-US')} rows)`

export { mb }
