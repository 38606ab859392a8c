// Timing of the projection over what the source-map bench accepted: rounds of 1,000 entries
// until the log is caught up, with the processor time of the bench process (the projection and
// its enricher run here) and of PostgreSQL, read from /proc around the rounds.
import type { PostgresIngestStore } from '@tis/storage-postgres'
import type postgres from 'postgres'
import { type CpuMeter, cpuMeter, isNamed, parentOf, withChildren } from './cpu'

/** Entries per projection round, as the server's projection loop takes them. */
export const ROUND_ENTRIES = 1000

/** One variant's projection, timed. */
export interface ProjectionRun {
  readonly events: number
  readonly seconds: number
  /** The first round's time: in the cold case, it reads and parses the map. */
  readonly firstRoundMs: number
  /** Processor seconds of this process (projection, enricher, driver). */
  readonly benchCpu: number
  /** Processor seconds of PostgreSQL's processes; `null` when it is not on this machine. */
  readonly pgCpu: number | null
}

/** Meters of this process and of PostgreSQL (the postmaster behind `sql` and its children). */
export async function projectionMeters(
  sql: postgres.Sql,
): Promise<{ bench: CpuMeter; pg: CpuMeter | null }> {
  const [backend] = await sql<Array<{ pid: number }>>`select pg_backend_pid() as pid`
  const postmaster = backend && isNamed(backend.pid, 'postgres') ? parentOf(backend.pid) : null
  return {
    bench: cpuMeter(() => [process.pid]),
    pg: postmaster ? cpuMeter(() => withChildren(postmaster)) : null,
  }
}

/** Projects everything pending with `store`, round by round, and times it. */
export async function timeProjection(
  store: PostgresIngestStore,
  meters: { bench: CpuMeter; pg: CpuMeter | null },
): Promise<ProjectionRun> {
  meters.bench.start()
  meters.pg?.start()
  const started = performance.now()
  let firstRoundMs = Number.NaN
  let events = 0
  for (;;) {
    const roundStart = performance.now()
    const round = await store.project(ROUND_ENTRIES)
    if (round.busy) throw new Error('another process is projecting this database')
    if (round.projected === 0) break
    if (Number.isNaN(firstRoundMs)) firstRoundMs = performance.now() - roundStart
    events += round.projected
  }
  const seconds = (performance.now() - started) / 1000
  return {
    events,
    seconds,
    firstRoundMs,
    benchCpu: meters.bench.stop(),
    pgCpu: meters.pg ? meters.pg.stop() : null,
  }
}

/** What a stored event's frames say of their resolution. */
type FrameState = 'resolved' | 'unresolved' | 'untouched'

/**
 * The states of the frames of the stored events `ids` (the `events` rows' payloads), with the
 * first `problem` an unresolved frame gives and the payloads' mean size.
 */
export async function frameStates(
  sql: postgres.Sql,
  ids: readonly string[],
): Promise<{
  states: Record<FrameState, number>
  events: number
  problem: string | null
  /** Mean size of the payloads as JSON text, in bytes. */
  bytes: number
}> {
  const rows = await sql<Array<{ payload: { context?: Record<string, unknown> }; bytes: number }>>`
    select payload, octet_length(payload::text) as bytes
      from events where id = any(${ids as string[]}::uuid[])`
  const states: Record<FrameState, number> = { resolved: 0, unresolved: 0, untouched: 0 }
  let problem: string | null = null
  for (const { payload } of rows) {
    const exception = payload.context?.['exception'] as { frames?: unknown[] } | undefined
    for (const frame of (exception?.frames ?? []) as Array<Record<string, unknown>>) {
      const sourcemap = frame['sourcemap'] as { resolved?: boolean; problem?: string } | undefined
      if (sourcemap?.resolved === true) states.resolved++
      else if (sourcemap) {
        states.unresolved++
        problem ??= sourcemap.problem ?? null
      } else states.untouched++
    }
  }
  const bytes = Math.round(rows.reduce((n, r) => n + r.bytes, 0) / Math.max(1, rows.length))
  return { states, events: rows.length, problem, bytes }
}
