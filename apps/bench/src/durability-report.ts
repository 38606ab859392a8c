// The table and the saved figures of the durability benchmark. Each variant's ratio to `off` is
// taken within a round (the two ran minutes apart at most) and the median over rounds is
// reported with its range: on a shared machine the absolute rates drift far more than that.
import type { LoadResult } from './durability-load'
import type { Variant } from './durability-variants'
import { median } from './quantile'
import type { Figure } from './results'

/** One measured run of one variant. */
export interface Run {
  readonly openMs: number
  readonly single: LoadResult
  readonly batch: LoadResult
  /** Acknowledged events (warm-up included) not found in the store afterwards. */
  readonly missing: number
}

const fixed = (n: number) => n.toFixed(2)

/** Median and range of the per-round ratios of `pick(run)` to the baseline's. */
function ratios(runs: readonly Run[], baseline: readonly Run[], pick: (run: Run) => number) {
  const each = runs.map((run, i) => pick(run) / pick(baseline[i] ?? run))
  return { median: median(each), min: Math.min(...each), max: Math.max(...each) }
}

/** Prints the table of every variant (runs in round order) and returns the headline figures. */
export function report(
  variants: readonly Variant[],
  runs: ReadonlyMap<string, readonly Run[]>,
  context: string,
): { figures: Figure[]; missing: number } {
  const baseline = runs.get(variants[0]!.name) ?? []
  const rows = variants.map((variant) => {
    const r = runs.get(variant.name) ?? []
    const single = ratios(r, baseline, (x) => x.single.eventsPerSecond)
    const batch = ratios(r, baseline, (x) => x.batch.eventsPerSecond)
    return {
      variant,
      single,
      batch,
      singleRate: median(r.map((x) => x.single.eventsPerSecond)),
      batchRate: median(r.map((x) => x.batch.eventsPerSecond)),
      p50: median(r.map((x) => x.single.p50)),
      p99: median(r.map((x) => x.single.p99)),
      openMs: median(r.map((x) => x.openMs)),
      missing: r.reduce((n, x) => n + x.missing, 0),
    }
  })
  console.log(`\n${context}\n`)
  console.table(
    rows.map((row) => ({
      variant: row.variant.name,
      'single vs off': `${fixed(row.single.median)} (${fixed(row.single.min)}–${fixed(row.single.max)})`,
      'single ev/s': row.singleRate,
      'p50 / p99 ms': `${row.p50} / ${row.p99}`,
      'batch vs off': `${fixed(row.batch.median)} (${fixed(row.batch.min)}–${fixed(row.batch.max)})`,
      'batch ev/s': row.batchRate,
      'open ms': row.openMs,
      missing: row.missing,
      'machine crash': row.variant.guarantee,
    })),
  )
  const off = rows[0]!
  const shipped = rows.find((row) => row.variant.name.startsWith('commit (shipped)')) ?? off
  const figures: Figure[] = [
    {
      what: 'single-event ingest, embedded store, sync commit',
      value: shipped.singleRate,
      unit: 'events/s',
      baseline: 'sync off (PGlite defaults)',
      baselineValue: off.singleRate,
      note: `median per-round ratio ${fixed(shipped.single.median)}; p99 ${shipped.p99} ms vs ${off.p99} ms`,
    },
    {
      what: 'batch ingest (100/request), embedded store, sync commit',
      value: shipped.batchRate,
      unit: 'events/s',
      baseline: 'sync off (PGlite defaults)',
      baselineValue: off.batchRate,
      note: `median per-round ratio ${fixed(shipped.batch.median)}`,
    },
    {
      what: 'opening a copied, migrated embedded store, sync commit',
      value: shipped.openMs,
      unit: 'ms',
      baseline: 'sync off',
      baselineValue: off.openMs,
    },
  ]
  return { figures, missing: rows.reduce((n, row) => n + row.missing, 0) }
}
