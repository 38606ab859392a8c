// `pnpm bench`: accepted events/s and p50/p99 latency of POST /api/v1/ingest_events on the
// reference server (PGlite and PostgreSQL, durable 201s), each next to a no-op Hono handler and
// a naive INSERT-per-request server measured in the same run on the same machine; one
// fingerprint (an error storm) against 5,000; batches of 1,000 lines; how fast the projection
// catches up behind acceptance, and its lag at half the peak rate. Afterwards every 201 is
// checked against the projected store.
import { measureEnvelope } from './envelope-comparison'
import { CONNECTIONS, DURATION, load, meters } from './ingest-load'
import { measurePglite } from './ingest-pglite-runs'
import { measurePostgres } from './ingest-postgres-runs'
import { type Row, row } from './ingest-report'
import { NOOP_MAIN } from './ingest-servers'
import { startNode } from './processes'
import { type Figure, saveFigures } from './results'

async function main() {
  const rows: Row[] = []
  const notes: string[] = []
  const summary: string[] = []

  const noop = await startNode(['--import', 'tsx', NOOP_MAIN], {})
  const baseline = await load(noop.url, {}, { meters: meters(noop.child.pid, null) })
  await noop.stop()
  rows.push(row('no-op Hono handler (baseline)', baseline))
  const base = baseline.requests.average
  const figures: Figure[] = []
  figures.push(...(await measurePglite(base, { rows, notes, summary })))
  figures.push(...(await measurePostgres(baseline, { rows, notes, summary })))
  // A Sentry envelope with one error event against the native single event.
  figures.push(...(await measureEnvelope({ rows, notes, summary }, base)).figures)

  console.log(
    `\nPOST /api/v1/ingest_events — ${CONNECTIONS} connections, ${DURATION} s per run, load generator on the same machine\n`,
  )
  console.table(rows)
  for (const note of notes) console.log(note)
  for (const line of summary) console.log(line)
  saveFigures('1-ingest', figures)
  if (notes.some((n) => !/: 0 acknowledged/.test(n))) {
    process.exitCode = 1
  }
}

await main()
