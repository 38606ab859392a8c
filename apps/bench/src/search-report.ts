// The issue search's table of the read bench: every shape's p50/p95/p99 next to the no-op
// baseline of the same run, judged by the search's own bound (p95 under 100 ms, slowest shape
// included), and its headline figure for `pnpm bench`'s summary.
import type { ProbeResult } from './read-load'
import { saveFigures } from './results'

/** The bound on every search shape's p95 (docs/issues.md#how-a-search-runs). */
export const SEARCH_TARGET_MS = 100

/** A search's figures and the issues on its first page. */
export type SearchResult = ProbeResult & { readonly 'page 1': number }

const p95 = (r: ProbeResult) => (typeof r['p95 ms'] === 'number' ? r['p95 ms'] : 1e9)

/** Prints the searches measured (`rows`) against `baseline`, and saves the slowest p95. */
export function reportSearch(
  rows: readonly SearchResult[],
  baseline: ProbeResult,
  events: number,
): void {
  if (rows.length === 0) return
  const table = [{ ...baseline, 'page 1': '—' }, ...rows].map((r, i) => ({
    'query (GET …/issues)': i === 0 ? 'no-op Hono GET (baseline)' : r.endpoint,
    'page 1': r['page 1'],
    'p50 ms': r['p50 ms'],
    'p95 ms': r['p95 ms'],
    'p99 ms': r['p99 ms'],
    'req/s': r['req/s'],
    'p95 < 100 ms': i === 0 ? '—' : p95(r) < SEARCH_TARGET_MS ? 'OK' : 'OVER',
    'non-2xx': r['non-2xx'],
  }))
  console.log(`\nIssue search, ${rows.length} shapes:\n`)
  console.table(table)
  const over = rows.filter((r) => p95(r) >= SEARCH_TARGET_MS).map((r) => r.endpoint)
  console.log(
    over.length ? `search p95 over 100 ms: ${over.join(', ')}` : 'every search p95 under 100 ms',
  )
  const worst = [...rows].sort((a, b) => p95(b) - p95(a))[0]
  if (!worst) return
  saveFigures('2-search', [
    {
      what: `issue search with ${events.toLocaleString('en-US')} events: slowest p95 of ${rows.length} shapes (${worst.endpoint})`,
      value: p95(worst),
      unit: 'ms',
      baseline: 'target',
      baselineValue: SEARCH_TARGET_MS,
      note: `${rows.length - over.length}/${rows.length} under 100 ms; no-op GET p95 ${baseline['p95 ms']} ms`,
    },
  ])
}
