import type autocannon from 'autocannon'
import { runCpu } from './ingest-load'
import type { Figure } from './results'

// The figures of the scrubbing comparison: per body, each run's rate and processor time per
// accepted event with scrubbing on and off, the ratios of the means and their spread over the
// rounds (on ÷ off of the same round).

/** The bar: acceptance with scrubbing on within this share of off. */
export const SCRUBBING_BAR = 1.1

/** The bodies loaded. */
export const BODIES = ['native', 'sentry'] as const
/** A body of {@link BODIES}. */
export type Body = (typeof BODIES)[number]
/** The two projects: default scrubbing, and `enabled: false`. */
export type Side = 'on' | 'off'

/** What the report calls each body. */
export const BODY_NAMES: Record<Body, string> = {
  native: "the bench's native error event",
  sentry: 'Sentry envelope with request data, breadcrumbs and contexts',
}

/** One measured run: req/s and processor µs per accepted event of the server and PostgreSQL. */
export interface ScrubbingRun {
  readonly rate: number
  readonly server: number
  readonly postgres: number | null
  readonly accepted: number
  readonly refused: number
}

/** The figures of one autocannon run of {@link load} with meters. */
export function scrubbingRun(result: autocannon.Result): ScrubbingRun {
  const cpu = runCpu(result)
  // runCpu divides by requests sent; the bar is per accepted event (every one, when all is well).
  const perAccepted = (us: number) =>
    Math.round((us * result.requests.total) / Math.max(1, result['2xx']))
  return {
    rate: Math.round(result.requests.average),
    server: perAccepted(cpu.server),
    postgres: cpu.postgres === null ? null : perAccepted(cpu.postgres),
    accepted: result['2xx'],
    refused: result.non2xx + result.errors + result.timeouts,
  }
}

/** The runs of one body, round by round. */
export type BodyRuns = Record<Side, ScrubbingRun[]>

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)

/** On ÷ off of the means of `pick`, and the lowest and highest on ÷ off of one round. */
function ratioOf(runs: BodyRuns, pick: (r: ScrubbingRun) => number) {
  const on = runs.on.map(pick)
  const off = runs.off.map(pick)
  const rounds = on.map((v, i) => v / (off[i] ?? Number.NaN))
  return {
    on: Math.round(mean(on)),
    off: Math.round(mean(off)),
    ratio: mean(on) / mean(off),
    low: Math.min(...rounds),
    high: Math.max(...rounds),
  }
}

/** Server µs per accepted event, on ÷ off: the bar's figure (≤ {@link SCRUBBING_BAR}). */
export const serverRatio = (runs: BodyRuns) => ratioOf(runs, (r) => r.server)
/** Req/s, on ÷ off (within 10% is ≥ 1 ÷ {@link SCRUBBING_BAR}). */
export const rateRatio = (runs: BodyRuns) => ratioOf(runs, (r) => r.rate)
/** PostgreSQL µs per accepted event, on ÷ off; `null` when PostgreSQL was not measured. */
export const postgresRatio = (runs: BodyRuns) =>
  runs.on.every((r) => r.postgres !== null) ? ratioOf(runs, (r) => r.postgres ?? 0) : null

const x = (n: number) => `${n.toFixed(2)}×`
const spread = (r: { low: number; high: number }) => `rounds ${x(r.low)}–${x(r.high)}`

/** The summary lines of one body. */
export function summaryLines(body: Body, runs: BodyRuns, bytes: number): string[] {
  const cpu = serverRatio(runs)
  const rate = rateRatio(runs)
  const pg = postgresRatio(runs)
  const list = (side: Side, pick: (r: ScrubbingRun) => number | null) =>
    runs[side].map(pick).join(', ')
  return [
    `${BODY_NAMES[body]} (${bytes} bytes), ${runs.on.length} alternating rounds:`,
    `  server µs per accepted event: on ${list('on', (r) => r.server)}; off ${list('off', (r) => r.server)}`,
    `    on ÷ off ${cpu.on} / ${cpu.off} = ${x(cpu.ratio)} (${spread(cpu)}) — ${cpu.ratio <= SCRUBBING_BAR ? 'PASS' : 'FAIL'} (bar ≤ ${SCRUBBING_BAR}×)`,
    `  req/s: on ${list('on', (r) => r.rate)}; off ${list('off', (r) => r.rate)}`,
    `    on ÷ off ${rate.on} / ${rate.off} = ${x(rate.ratio)} (${spread(rate)})`,
    ...(pg
      ? [
          `  PostgreSQL µs per accepted event: on ${list('on', (r) => r.postgres)}; off ${list('off', (r) => r.postgres)}`,
          `    on ÷ off ${pg.on} / ${pg.off} = ${x(pg.ratio)} (${spread(pg)})`,
        ]
      : []),
  ]
}

/** The saved figures of one body: server µs per accepted event and req/s, on against off. */
export function figuresOf(body: Body, runs: BodyRuns): Figure[] {
  const cpu = serverRatio(runs)
  const rate = rateRatio(runs)
  const rounds = `mean of ${runs.on.length} alternating rounds`
  return [
    {
      what: `server processor µs per accepted event, scrubbing on vs off, ${BODY_NAMES[body]}`,
      value: cpu.on,
      unit: `µs (${rounds})`,
      baseline: 'scrubbing off',
      baselineValue: cpu.off,
      note: `bar ≤ ${SCRUBBING_BAR}×: ${cpu.ratio <= SCRUBBING_BAR ? 'pass' : 'FAIL'}; ${spread(cpu)}`,
    },
    {
      what: `ingest req/s, scrubbing on vs off, ${BODY_NAMES[body]}`,
      value: rate.on,
      unit: `req/s (${rounds})`,
      baseline: 'scrubbing off',
      baselineValue: rate.off,
      note: spread(rate),
    },
  ]
}
