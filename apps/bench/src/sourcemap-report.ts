// The report of the source-map bench: one row per variant and round next to the same round's
// baseline, the means, and the headline figures for `pnpm bench`'s summary.
import type { MapCacheStats } from '@tis/ingest'
import { microsPerRequest } from './cpu'
import type { Figure } from './results'
import type { ProjectionRun } from './sourcemap-projection'

/** The variants, in the order of the table; `plain` is the baseline. */
export const VARIANTS = {
  plain: 'no JavaScript frames, store without enrich (baseline)',
  plainEnriched: 'no JavaScript frames, store with enrich',
  cold: 'resolvable frames, cold cache (fresh resolver)',
  warm: 'resolvable frames, warm cache (same resolver)',
  unmapped: 'JavaScript frames, no map uploaded',
} as const

/** A variant's key. */
export type Variant = keyof typeof VARIANTS

/** Every run of the bench: per round, per variant. */
export type Runs = Array<Partial<Record<Variant, ProjectionRun>>>

const rate = (r: ProjectionRun) => r.events / r.seconds
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

/** Sums of the runs of `variant` over the rounds. */
function total(runs: Runs, variant: Variant) {
  const list = runs.flatMap((round) => (round[variant] ? [round[variant]] : []))
  const sum = (f: (r: ProjectionRun) => number) => list.reduce((n, r) => n + f(r), 0)
  const events = sum((r) => r.events)
  return {
    rate: events / sum((r) => r.seconds),
    bench: microsPerRequest(
      sum((r) => r.benchCpu),
      events,
    ),
    pg: list.every((r) => r.pgCpu !== null)
      ? microsPerRequest(
          sum((r) => r.pgCpu ?? 0),
          events,
        )
      : Number.NaN,
    firstRoundMs: list.map((r) => Math.round(r.firstRoundMs)),
  }
}

/** Prints the per-round table and the means. */
export function printReport(runs: Runs, cache: MapCacheStats, notes: readonly string[]): void {
  const rows = runs.flatMap((round, i) =>
    (Object.keys(VARIANTS) as Variant[]).flatMap((variant) => {
      const run = round[variant]
      const base = round.plain
      if (!run || !base) return []
      return [
        {
          variant: `${VARIANTS[variant]} #${i + 1}`,
          events: run.events,
          'events/s': fmt(rate(run)),
          'vs baseline': `${((rate(run) / rate(base)) * 100).toFixed(0)}%`,
          'bench µs/event': microsPerRequest(run.benchCpu, run.events),
          'pg µs/event': run.pgCpu === null ? 'n/a' : microsPerRequest(run.pgCpu, run.events),
          'first round ms': Math.round(run.firstRoundMs),
        },
      ]
    }),
  )
  console.log('\nSource maps in the projection: rounds of 1,000 entries until caught up\n')
  console.table(rows)
  const base = total(runs, 'plain')
  console.log('\nmeans over the rounds (sum of events / sum of seconds):')
  for (const variant of Object.keys(VARIANTS) as Variant[]) {
    const t = total(runs, variant)
    console.log(
      `  ${VARIANTS[variant]}: ${fmt(t.rate)} events/s = ${((t.rate / base.rate) * 100).toFixed(0)}% of the baseline; bench ${t.bench} µs/event, PostgreSQL ${t.pg} µs/event; first rounds ${t.firstRoundMs.join(', ')} ms`,
    )
  }
  console.log(
    `\ncache: ${fmt(cache.bytes)} of ${fmt(cache.maxBytes)} bytes, ${cache.entries} entries, ${cache.hits} hits, ${cache.misses} misses, ${cache.evictions} evictions`,
  )
  for (const note of notes) console.log(note)
}

/** The headline figures: every variant's rate next to the baseline's, the parse, the cache. */
export function reportFigures(runs: Runs, cache: MapCacheStats): Figure[] {
  const base = total(runs, 'plain')
  const cold = total(runs, 'cold')
  const warm = total(runs, 'warm')
  const figures: Figure[] = (['plainEnriched', 'cold', 'warm', 'unmapped'] as const).map((v) => {
    const t = total(runs, v)
    return {
      what: `projection events/s, ${VARIANTS[v]}`,
      value: Math.round(t.rate),
      unit: 'events/s',
      baseline: VARIANTS.plain,
      baselineValue: Math.round(base.rate),
      note: `µs/event bench ${t.bench} (baseline ${base.bench}), PostgreSQL ${t.pg} (baseline ${base.pg})`,
    }
  })
  figures.push(
    {
      what: 'projection first round (1,000 events), cold cache: reads and parses the map',
      value: Math.max(...cold.firstRoundMs),
      unit: 'ms',
      baseline: 'first round, warm cache',
      baselineValue: Math.max(...warm.firstRoundMs),
    },
    {
      what: 'parsed-map cache at the end',
      value: cache.bytes,
      unit: 'bytes',
      baseline: 'its bound (cacheBytes)',
      baselineValue: cache.maxBytes,
      note: `${cache.entries} entries, ${cache.hits} hits, ${cache.misses} misses, ${cache.evictions} evictions`,
    },
  )
  return figures
}
