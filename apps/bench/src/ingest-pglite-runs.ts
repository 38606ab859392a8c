import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type IngestReport, latency } from './ingest-report'
import { measureNaive, measureTis } from './ingest-servers'
import type { Figure } from './results'

/**
 * The embedded runs: the naive INSERT-per-request server on PGlite, then tis on PGlite (its
 * events counted from the data directory once the server stopped). `base` is the no-op's req/s.
 */
export async function measurePglite(base: number, report: IngestReport): Promise<Figure[]> {
  const { rows, notes } = report
  const figures: Figure[] = []
  const naiveDir = mkdtempSync(join(tmpdir(), 'tis-bench-naive-'))
  let naivePglite: Awaited<ReturnType<typeof measureNaive>>
  try {
    naivePglite = await measureNaive(
      'naive INSERT per request, PGlite',
      { NAIVE_DATA_DIR: naiveDir },
      base,
    )
  } finally {
    rmSync(naiveDir, { recursive: true, force: true })
  }
  rows.push(naivePglite.row)

  const dataDir = mkdtempSync(join(tmpdir(), 'tis-bench-pglite-'))
  try {
    const pglite = await measureTis(
      'tis on PGlite (embedded)',
      { SERVICE_DATA_DIR: dataDir },
      async (projectId, server) => {
        await server.stop()
        const { PGlite } = await import('@electric-sql/pglite')
        const db = new PGlite(dataDir)
        const r = await db.query<{ n: number }>(
          'select count(*)::int as n from events where project_id = $1',
          [projectId],
        )
        await db.close()
        return r.rows[0]?.n ?? 0
      },
      base,
    )
    rows.push(pglite.row)
    notes.push(`PGlite: ${pglite.lost} acknowledged events missing from the store`)
    figures.push(
      {
        what: 'ingest events/s, tis on PGlite',
        value: Math.round(pglite.result.requests.average),
        unit: 'req/s',
        baseline: 'no-op Hono handler',
        baselineValue: Math.round(base),
        note: latency(pglite.result),
      },
      {
        what: 'ingest events/s, tis on PGlite',
        value: Math.round(pglite.result.requests.average),
        unit: 'req/s',
        baseline: 'naive INSERT per request, PGlite',
        baselineValue: Math.round(naivePglite.result.requests.average),
        note: `naive: ${latency(naivePglite.result)}`,
      },
      {
        what: 'server peak RSS, tis on PGlite under load',
        value: pglite.rssMiB ?? Number.NaN,
        unit: 'MiB',
      },
    )
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
  return figures
}
