// Write throughput, batches of 200 events (half of them errors over 10 issues), on PGlite
// (memory and disk) and on a durable PostgreSQL (fsync on; TEST_DATABASE_URL or embedded):
// - append: acceptance on the ingest log (what a 201 waits for);
// - project: the projection of that backlog into the read model, rounds of 1,000 entries.
// BENCH_ANALYTICS=1 opens the stores with the analytics store enabled (`analytics`), to
// measure what analytics adds to each path.
// BENCH_WRITE_PREFILL rows are projected first (non-empty indexes); BENCH_WRITE_STORES=postgres
// measures PostgreSQL only.
// Run: pnpm --filter @tis/storage-postgres bench
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestPostgres } from '@tis/test-utils/postgres'
import { openPgliteStore, openPostgresStore, type PostgresIngestStore } from '../src/index'
import { batchOf, seedProject } from './batch-of'

const BATCH = 200
const WARMUP = 5
const ROUNDS = 50
/** Rows appended and projected before measuring, so the read model's indexes are not empty. */
const PREFILL = Number(process.env['BENCH_WRITE_PREFILL'] ?? 0)
const ANALYTICS = process.env['BENCH_ANALYTICS'] === '1'
const options = { analytics: ANALYTICS }
const suffix = ANALYTICS ? ', analytics on' : ''

async function measure(name: string, store: PostgresIngestStore): Promise<void> {
  const projectId = await seedProject(store)
  for (let n = 0; n < PREFILL; n += 1_000) await store.append(batchOf(projectId, 1_000))
  while ((await store.project(1_000)).more);
  for (let i = 0; i < WARMUP; i++) await store.append(batchOf(projectId, BATCH))
  while ((await store.project(1_000)).more);
  const appended = await timed(ROUNDS, BATCH, () => store.append(batchOf(projectId, BATCH)))
  const projection = await timed(Math.ceil((ROUNDS * BATCH) / 1_000), 1_000, () =>
    store.project(1_000),
  )
  const row = (label: string, r: Timed, ratio?: number) =>
    console.log(
      `${`${name}: ${label}`.padEnd(44)} ${Math.round(r.rate).toLocaleString('en').padStart(8)} rows/s   batch p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms${ratio === undefined ? '' : `   ${ratio.toFixed(2)}× append`}`,
    )
  row('append (acceptance)', appended)
  row('project (rounds of 1,000)', projection, projection.rate / appended.rate)
}

interface Timed {
  readonly rate: number
  readonly p50: number
  readonly p95: number
}

/** Runs `round` `rounds` times one after another; rows per second and round latencies. */
async function timed(rounds: number, rows: number, round: () => Promise<unknown>): Promise<Timed> {
  const times: number[] = []
  const start = performance.now()
  for (let i = 0; i < rounds; i++) {
    const t = performance.now()
    await round()
    times.push(performance.now() - t)
  }
  const seconds = (performance.now() - start) / 1_000
  times.sort((a, b) => a - b)
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!
  return { rate: (rows * rounds) / seconds, p50: p(0.5), p95: p(0.95) }
}

// BENCH_WRITE_STORES=postgres measures PostgreSQL only (the projection's per-row cost).
const STORES = (process.env['BENCH_WRITE_STORES'] ?? 'pglite,postgres').split(',')

if (STORES.includes('pglite')) {
  const dir = await mkdtemp(join(tmpdir(), 'tis-bench-pglite-'))
  try {
    const memory = await openPgliteStore(undefined, options)
    await measure(`PGlite (memory${suffix})`, memory)
    await memory.close()
    const disk = await openPgliteStore(dir, options)
    await measure(`PGlite (disk${suffix})`, disk)
    await disk.close()
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

if (STORES.includes('postgres')) {
  const pg = await startTestPostgres({ durable: true })
  try {
    const store = await openPostgresStore(pg.url, options)
    await measure(`PostgreSQL (${pg.source}, fsync on${suffix})`, store)
    await store.close()
  } finally {
    await pg.stop()
  }
}
