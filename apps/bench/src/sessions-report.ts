import { median } from './quantile'
import type { Figure } from './results'
import type { Plan, SessionRun } from './sessions-ingest'
import type { ReadLatency } from './sessions-reads'

// The figures of the release-health benchmark: each ingest run, the medians of each plan and
// B ÷ A against the bar; the read percentiles against 50 ms.

/** The ingest bar: processor time per event with session items beside it within 10% of without. */
export const INGEST_BAR = 1.1
/** The read bar: one release's health over 30 days under this p95, in ms. */
export const READ_P95_MS = 50

/** The table row of one ingest run. */
export const runRow = (r: SessionRun, round: number) => ({
  run: `${r.plan} #${round}`,
  events: r.events,
  'session items': r.sessions,
  'µs/event (server+pg)': r.usPerEvent,
  'µs/record (server+pg)': r.usPerRecord,
  'server µs/record': r.serverUsPerRecord,
  'pg µs/record': r.pgUsPerRecord ?? 'n/a',
  'records/s': r.rowsPerSecond,
  'sustained records/s': r.sustainedPerSecond,
  'catch-up ms': r.catchUpMs,
  'p99 ms': r.p99Ms,
  failed: r.failed,
})

type Pick = (r: SessionRun) => number

/** The median of `pick` over the runs of `plan`. */
const med = (runs: readonly SessionRun[], plan: Plan, pick: Pick) =>
  median(runs.filter((r) => r.plan === plan).map(pick))

/** Medians of each plan and their ratio, per figure. */
export function medians(runs: readonly SessionRun[]) {
  const figure = (pick: Pick) => {
    const a = med(runs, 'A', pick)
    const b = med(runs, 'B', pick)
    const c = med(runs, 'C', pick)
    return { a, b, c, ratio: b / a, ratioC: c / a }
  }
  return {
    perEvent: figure((r) => r.usPerEvent),
    perRecord: figure((r) => r.usPerRecord),
    server: figure((r) => r.serverUsPerRecord),
    postgres: figure((r) => r.pgUsPerRecord ?? Number.NaN),
    rate: figure((r) => r.rowsPerSecond),
    sustained: figure((r) => r.sustainedPerSecond),
    catchUp: figure((r) => r.catchUpMs),
  }
}

const x = (n: number) => `${n.toFixed(2)}×`

/** Whether plan B's µs per event is within the bar of plan A's. */
export const ingestVerdict = (ratio: number) =>
  ratio <= INGEST_BAR
    ? `PASS (≤ ${INGEST_BAR}×)`
    : `FAIL: ${((ratio - INGEST_BAR) * 100).toFixed(0)} points over the ${INGEST_BAR}× bar`

/** The summary lines of the ingest comparison. */
export function ingestLines(runs: readonly SessionRun[]): string[] {
  const m = medians(runs)
  const line = (name: string, f: ReturnType<typeof medians>['perEvent']) =>
    `  ${name}: A ${f.a}, B ${f.b}, C ${f.c}; B ÷ A ${x(f.ratio)}, C ÷ A ${x(f.ratioC)}`
  return [
    'medians of the rounds:',
    `${line('server+pg µs per event', m.perEvent)} — B ${ingestVerdict(m.perEvent.ratio)}; C ${ingestVerdict(m.perEvent.ratioC)}`,
    line('server+pg µs per record', m.perRecord),
    line('server µs per record', m.server),
    line('pg µs per record', m.postgres),
    line('records/s (load)', m.rate),
    line('records/s (until caught up)', m.sustained),
    line('projection catch-up ms', m.catchUp),
  ]
}

/** The verdict of one read's p95. */
export const readVerdict = (r: ReadLatency) =>
  r.failed > 0 ? `FAIL (${r.failed} non-200)` : r.p95 < READ_P95_MS ? 'PASS' : 'FAIL'

/** The saved figures of the benchmark. */
export function sessionFigures(
  runs: readonly SessionRun[],
  reads: { detail: ReadLatency; list: ReadLatency; baseline: ReadLatency },
): Figure[] {
  const m = medians(runs)
  const rounds = `median of ${runs.filter((r) => r.plan === 'A').length} alternating rounds`
  return [
    {
      what: 'ingest processor µs per event (server+pg) with a session item per 5 events vs none',
      value: m.perEvent.b,
      unit: `µs (${rounds})`,
      baseline: 'events only',
      baselineValue: m.perEvent.a,
      note: `bar ≤ ${INGEST_BAR}×: ${ingestVerdict(m.perEvent.ratio)}`,
    },
    {
      what: 'ingest processor µs per event (server+pg) with a session item in every 5th envelope vs none',
      value: m.perEvent.c,
      unit: `µs (${rounds})`,
      baseline: 'events only',
      baselineValue: m.perEvent.a,
      note: `bar ≤ ${INGEST_BAR}×: ${ingestVerdict(m.perEvent.ratioC)}`,
    },
    {
      what: 'ingest records/s with a session item per 5 events vs none',
      value: m.rate.b,
      unit: `records/s (${rounds})`,
      baseline: 'events only',
      baselineValue: m.rate.a,
    },
    {
      what: 'release health over 30 days of minute aggregates, p95',
      value: reads.detail.p95,
      unit: 'ms',
      baseline: 'target',
      baselineValue: READ_P95_MS,
      note: `${readVerdict(reads.detail)}; p50 ${reads.detail.p50}, p99 ${reads.detail.p99}; GET project p95 ${reads.baseline.p95}`,
    },
    {
      what: 'release list over 30 days, p95',
      value: reads.list.p95,
      unit: 'ms',
      baseline: 'target',
      baselineValue: READ_P95_MS,
      note: `${readVerdict(reads.list)}; p50 ${reads.list.p50}, p99 ${reads.list.p99}`,
    },
  ]
}
