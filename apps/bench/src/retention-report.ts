// What the retention bench prints and saves (results/6-retention.json).
import { loadavg } from 'node:os'
import type autocannon from 'autocannon'
import { type Figure, saveFigures } from './results'
import { type DiskStep, diskNote, diskTable, mb } from './retention-disk'
import type { deleted, loadRow, PassResult } from './retention-load'

/** One cycle: its windows (before, during, after the pass), the pass and the disk steps. */
export interface Cycle {
  readonly label: string
  /** The period the pass kept. */
  readonly days: number
  readonly rows: ReturnType<typeof loadRow>[]
  readonly pass: PassResult
  readonly gone: ReturnType<typeof deleted>
  readonly disk: readonly DiskStep[]
  /** Seconds of the maintenance steps (VACUUM, the events back). */
  readonly seconds: Record<string, number>
}

/** Everything one run measured. */
export interface RetentionRun {
  readonly peak: autocannon.Result
  readonly rate: number
  readonly cycles: readonly Cycle[]
  readonly seeded: DiskStep
  /** The steps after the cycles (VACUUM FULL). */
  readonly end: readonly DiskStep[]
  readonly seedSeconds: number
  readonly timings: Record<string, number>
  readonly maintenance: Record<string, number>
}

/** The run's scale. */
export interface RetentionSettings {
  readonly events: number
  readonly spreadDays: number
  readonly keepDays: number
  readonly peakSeconds: number
}

const n = (x: number) => x.toLocaleString('en-US')
const fixed = (x: number, d = 1) => x.toFixed(d)
const seconds = (o: Record<string, number>) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, fixed(v)]))
const byName = (c: Cycle, name: string) => c.disk.find((d) => d.step === `${c.label}: ${name}`)

/** A cycle's windows and pass, printed; its p99 figure. */
function latencyFigure(c: Cycle, rate: number): Figure {
  const [before, during, after] = c.rows as [
    ReturnType<typeof loadRow>,
    ReturnType<typeof loadRow>,
    ReturnType<typeof loadRow>,
  ]
  const ratio = during['p99 ms'] / Math.max(1, before['p99 ms'])
  const pass = `${fixed(c.pass.seconds)} s, deleted ${n(c.gone.events)} events, ${n(c.gone.spans)} spans, ${n(c.gone.checkIns)} check-ins`
  console.log(`\n${c.label} (keeps ${c.days} days), ingest at ${Math.round(rate)} req/s`)
  console.table(c.rows)
  console.log(
    `tis prune (own process): ${pass}; ${n(c.gone.issues)} issues marked expired\ningest p99 during / without the pass: ${during['p99 ms']} / ${before['p99 ms']} ms = ${fixed(ratio, 2)}× (bar: 2×) — ${ratio <= 2 ? 'within' : 'OVER'}; against the window after: ${fixed(during['p99 ms'] / Math.max(1, after['p99 ms']), 2)}×; load average ${fixed(loadavg()[0] ?? 0)}`,
  )
  return {
    what: `ingest p99 during retention ${c.label} (expires ${n(c.gone.events)} events), half the peak rate (${Math.round(rate)} req/s)`,
    value: during['p99 ms'],
    unit: 'ms',
    baseline: 'p99 without a pass, same rate (bar: 2×)',
    baselineValue: before['p99 ms'],
    note: `pass ${pass}; p50 ${during['p50 ms']} / ${before['p50 ms']} ms; p99 in the window after ${after['p99 ms']} ms; ${during['non-2xx']} non-2xx`,
  }
}

/** The cycle's events back, against its VACUUM after the pass. */
function reuseFigure(c: Cycle): Figure[] {
  const vacuumed = byName(c, 'VACUUM')
  const again = c.disk.at(-1)
  if (!vacuumed || !again) return []
  const delta = (f: (s: DiskStep) => number) => mb(f(again) - f(vacuumed))
  return [
    {
      what: `events table with its indexes, ${again.step}`,
      value: mb(again.events),
      unit: 'MB',
      baseline: 'after the pass and VACUUM',
      baselineValue: mb(vacuumed.events),
      note: `Δ heap ${delta((s) => s.eventsHeap)} MB, Δ indexes ${delta((s) => s.eventsIndexes)} MB, Δ ingest_keys ${delta((s) => s.ingestKeys)} MB, Δ database without the ingest log ${delta((s) => s.database - s.ingestLog)} MB`,
    },
  ]
}

/** Prints the run's tables and saves its figures. */
export function report(r: RetentionRun, s: RetentionSettings) {
  console.log(
    `\n${n(s.events)} events over ${s.spreadDays} days seeded in ${fixed(r.seedSeconds)} s; period ${s.keepDays} days`,
  )
  console.table(seconds(r.timings))
  console.log(
    `\npeak (closed loop, ${s.peakSeconds} s): ${Math.round(r.peak.requests.average)} req/s, p50 ${r.peak.latency.p50} ms, p99 ${r.peak.latency.p99} ms; windows at half of it`,
  )
  const figures = r.cycles.map((c) => latencyFigure(c, r.rate))
  const disk = [r.seeded, ...r.cycles.flatMap((c) => c.disk), ...r.end]
  console.log('\nDisk (MB = 10^6 bytes)')
  console.table(diskTable(disk))
  console.table(seconds(Object.assign({}, ...r.cycles.map((c) => c.seconds), r.maintenance)))
  const first = r.cycles[0]
  const beforePass = first && byName(first, 'before the pass')
  const vacuumed = first && byName(first, 'VACUUM')
  const noLog = (d: DiskStep) => mb(d.database - d.ingestLog)
  if (beforePass && vacuumed) {
    figures.push({
      what: 'database size after pass 1 and a plain VACUUM',
      value: mb(vacuumed.database),
      unit: 'MB',
      baseline: 'before the pass',
      baselineValue: mb(beforePass.database),
      note: `without the ingest log ${noLog(vacuumed)} MB, was ${noLog(beforePass)} MB; ${diskNote(vacuumed)}`,
    })
  }
  figures.push(...r.cycles.flatMap(reuseFigure))
  const full = r.end.find((d) => d.step === 'after VACUUM FULL')
  const last = r.cycles.at(-1)?.disk.at(-1)
  if (last && full) {
    figures.push({
      what: 'database without the ingest log after VACUUM FULL (the maintenance window)',
      value: noLog(full),
      unit: 'MB',
      baseline: 'before it',
      baselineValue: noLog(last),
      note: `events ${mb(full.events)} MB (was ${mb(last.events)}), spans ${mb(full.spans)} (${mb(last.spans)}), ingest_keys ${mb(full.ingestKeys)} (${mb(last.ingestKeys)}); ${diskNote(full)}`,
    })
  }
  saveFigures('6-retention', figures)
  if (r.cycles.some((c) => c.rows.some((row) => row['non-2xx'] > 0))) process.exitCode = 1
}
