// Each benchmark of `pnpm bench` records its headline figures here (apps/bench/results/*.json,
// not committed); `summary.ts` prints them as the one table of the run.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** One headline figure next to the baseline it is judged against. */
export interface Figure {
  /** What was measured, e.g. `ingest, tis on PostgreSQL`. */
  readonly what: string
  readonly value: number
  readonly unit: string
  /** The baseline measured in the same run, e.g. `no-op Hono handler`. */
  readonly baseline?: string
  readonly baselineValue?: number
  /** Extra detail: latencies, counts. */
  readonly note?: string
}

const dir = fileURLToPath(new URL('../results/', import.meta.url))

/** Saves the figures of one benchmark, replacing its previous file. */
export function saveFigures(bench: string, figures: readonly Figure[]): void {
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    `${dir}${bench}.json`,
    `${JSON.stringify({ at: new Date().toISOString(), figures }, null, 2)}\n`,
  )
}

/** Every saved benchmark, in name order. */
export function loadFigures(): { bench: string; at: string; figures: Figure[] }[] {
  let files: string[] = []
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json'))
  } catch {
    return []
  }
  return files.sort().map((file) => {
    const parsed = JSON.parse(readFileSync(`${dir}${file}`, 'utf8')) as {
      at: string
      figures: Figure[]
    }
    return { bench: file.replace(/\.json$/, ''), ...parsed }
  })
}

/** Peak resident set (VmHWM) of a process, in MiB; `null` where /proc is not available. */
export function peakRssMiB(pid: number | undefined): number | null {
  if (pid === undefined) return null
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1]
    return kb ? Math.round(Number(kb) / 1024) : null
  } catch {
    return null
  }
}
