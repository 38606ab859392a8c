// What the retention bench prints and saves (results/6-retention.json).
import { loadavg } from 'node:os'
import type autocannon from 'autocannon'
import { type Figure, saveFigures } from './results'
import { type DiskStep, diskNote, diskTable, mb } from './retention-disk'
import type { deleted, loadRow, PassResult } from './retention-load'

/** Everything one run measured. */
export interface RetentionRun {
  readonly peak: autocannon.Result
  readonly rate: number
  /** The windows: without a pass (before), during the pass, without a pass (after). */
  readonly rows: ReturnType<typeof loadRow>[]
  readonly pass: PassResult
  readonly gone: ReturnType<typeof deleted>
  readonly disk: readonly DiskStep[]
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

/**
 * Each step that brought the expired number of events back, against the VACUUM after its pass
 * (the first cycle's last window adds its events between the two).
 */
function reuseFigures(disk: readonly DiskStep[]): Figure[] {
  return disk.flatMap((d) => {
    const cycle = /^pass \d+/.exec(d.step)?.[0]
    const base = cycle ? `${cycle}: VACUUM twice` : 'after VACUUM'
    const prev = disk.find((x) => x.step === base)
    if (!prev || !d.step.includes('events again')) return []
    const delta = (f: (s: DiskStep) => number) => mb(f(d) - f(prev))
    return [
      {
        what: `events table with its indexes, ${d.step}`,
        value: mb(d.events),
        unit: 'MB',
        baseline: prev.step,
        baselineValue: mb(prev.events),
        note: `Δ heap ${delta((s) => s.eventsHeap)} MB, Δ indexes ${delta((s) => s.eventsIndexes)} MB, Δ ingest_keys ${delta((s) => s.ingestKeys)} MB, Δ database without the ingest log ${delta((s) => s.database - s.ingestLog)} MB`,
      },
    ]
  })
}

/** Prints the run's tables and saves its figures. */
export function report(r: RetentionRun, s: RetentionSettings) {
  const [before, during, after] = r.rows as [
    ReturnType<typeof loadRow>,
    ReturnType<typeof loadRow>,
    ReturnType<typeof loadRow>,
  ]
  const ratio = during['p99 ms'] / Math.max(1, before['p99 ms'])
  console.log(
    `\n${n(s.events)} events over ${s.spreadDays} days seeded in ${fixed(r.seedSeconds)} s; period ${s.keepDays} days`,
  )
  console.table(seconds(r.timings))
  console.log(
    `\npeak (closed loop, ${s.peakSeconds} s): ${Math.round(r.peak.requests.average)} req/s, p99 ${r.peak.latency.p99} ms; windows at half of it, ${Math.round(r.rate)} req/s`,
  )
  console.table(r.rows)
  console.log(
    `retention pass (tis prune, own process): ${fixed(r.pass.seconds)} s; deleted ${r.gone.events} events, ${r.gone.spans} spans, ${r.gone.checkIns} check-ins; ${r.gone.issues} issues marked expired`,
  )
  console.log(
    `ingest p99 during / without the pass: ${during['p99 ms']} / ${before['p99 ms']} ms = ${fixed(ratio, 2)}× (bar: 2×) — ${ratio <= 2 ? 'within' : 'OVER'}; after the pass: ${after['p99 ms']} ms (${fixed(during['p99 ms'] / Math.max(1, after['p99 ms']), 2)}×); load average ${fixed(loadavg()[0] ?? 0)}`,
  )
  console.log('\nDisk (MB = 10^6 bytes)')
  console.table(diskTable(r.disk))
  console.table(seconds(r.maintenance))
  const step = (name: string) => r.disk.find((d) => d.step === name)
  const [beforePass, vacuumed, full] = ['before the pass', 'after VACUUM', 'after VACUUM FULL'].map(
    step,
  )
  const scale = `${n(s.events)} events, ${n(r.gone.events)} expired`
  const figures: Figure[] = [
    {
      what: `ingest p99 during a retention pass (${scale}), half the peak rate (${Math.round(r.rate)} req/s)`,
      value: during['p99 ms'],
      unit: 'ms',
      baseline: 'p99 without a pass, same rate (bar: 2×)',
      baselineValue: before['p99 ms'],
      note: `p50 ${during['p50 ms']} / ${before['p50 ms']} ms; p99 after the pass ${after['p99 ms']} ms; ${during['non-2xx']} non-2xx`,
    },
    {
      what: `retention pass (tis prune) under load, ${scale}`,
      value: Math.round(r.pass.seconds * 10) / 10,
      unit: 's',
      note: `deleted ${r.gone.events} events, ${r.gone.spans} spans, ${r.gone.checkIns} check-ins`,
    },
  ]
  if (beforePass && vacuumed) {
    figures.push({
      what: 'database size after the pass and a plain VACUUM',
      value: mb(vacuumed.database),
      unit: 'MB',
      baseline: 'before the pass',
      baselineValue: mb(beforePass.database),
      note: diskNote(vacuumed),
    })
  }
  figures.push(...reuseFigures(r.disk))
  if (beforePass && full) {
    figures.push({
      what: 'database size after VACUUM FULL (the maintenance window)',
      value: mb(full.database),
      unit: 'MB',
      baseline: 'before the pass',
      baselineValue: mb(beforePass.database),
      note: diskNote(full),
    })
  }
  saveFigures('6-retention', figures)
  if (r.rows.some((row) => row['non-2xx'] > 0)) process.exitCode = 1
}
