// `pnpm bench` (or `pnpm --filter @tis/bench run bench:durability`): what making the embedded
// PGlite database durable costs. Acknowledged single-event and batch ingest through the real engine
// on each variant of durability-variants.ts, alternating over several rounds, each as a ratio to
// today's PGlite (fsync off) measured in the same run. Every acknowledged event is then counted in
// the store. docs/benchmarks.md ("Durability of the embedded store") explains the variants.
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { cp } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { bootstrapAdmin, createEngine, createMemoryRateLimiter } from '@tis/ingest'
import { openPgliteStore, type PostgresIngestStore } from '@tis/storage-postgres'
import { batches, singles } from './durability-load'
import { type Run, report } from './durability-report'
import { VARIANTS } from './durability-variants'
import { quantile } from './quantile'
import { saveFigures } from './results'

const ROUNDS = Number(process.env['BENCH_DURABILITY_ROUNDS'] ?? 3)
const SECONDS = Number(process.env['BENCH_DURABILITY_SECONDS'] ?? 5)
const CONNECTIONS = Number(process.env['BENCH_DURABILITY_CONNECTIONS'] ?? 50)
const BATCH = { size: 100, concurrency: 5 }
const ADMIN = { email: 'bench@localhost', token: `tis_user_${'d'.repeat(48)}` }

/** p50 and p99 of `write(8 KiB) + fsync` on this disk, in microseconds. */
function fsyncLatency(dir: string): { p50: number; p99: number } {
  const fd = openSync(join(dir, 'probe'), 'w')
  const block = Buffer.alloc(8192, 1)
  const times: number[] = []
  for (let i = 0; i < 300; i++) {
    const t = performance.now()
    writeSync(fd, block, 0, block.length, (i % 64) * 8192)
    fsyncSync(fd)
    times.push((performance.now() - t) * 1000)
  }
  closeSync(fd)
  times.sort((a, b) => a - b)
  return { p50: Math.round(quantile(times, 0.5)), p99: Math.round(quantile(times, 0.99)) }
}

/** Events of `projectId` stored in the database of `dir` (opened after the store closed). */
async function countStored(dir: string, projectId: string): Promise<number> {
  const db = await PGlite.create(dir)
  try {
    const { rows } = await db.query<{ n: number }>(
      'select count(*)::int as n from events where project_id = $1',
      [projectId],
    )
    return rows[0]?.n ?? 0
  } finally {
    await db.close()
  }
}

/** One variant on a fresh copy of the migrated template: open, load, count, close. */
async function measure(
  open: (dir: string) => Promise<PostgresIngestStore>,
  template: string,
): Promise<Run> {
  const dir = join(mkdtempSync(join(tmpdir(), 'tis-bench-durability-')), 'data')
  await cp(template, dir, { recursive: true })
  const started = performance.now()
  const store = await open(dir)
  const openMs = Math.round(performance.now() - started)
  const engine = createEngine({
    store,
    config: {
      adminEmails: [ADMIN.email],
      rateLimits: { requests: 1_000_000_000 },
      projection: { embedded: true },
    },
    // As the server on PGlite: counters in memory, so every commit is an acknowledgement.
    adapters: { limiter: createMemoryRateLimiter() },
  })
  engine.start()
  let projectId = ''
  let acknowledged = 0
  let result: Omit<Run, 'missing'>
  try {
    const admin = { authorization: `Bearer ${ADMIN.token}` }
    const project = await engine.management.createProject({
      headers: admin,
      body: { project: { name: 'durability', integration_kind: 'node' } },
    })
    projectId = (project.body as { project: { id: string } }).project.id
    const key = await engine.management.createApiKey({ headers: admin, params: { id: projectId } })
    const { token } = key.body as { token: string }
    const warmUp = await singles(engine.ingest, token, 1, CONNECTIONS)
    const single = await singles(engine.ingest, token, SECONDS, CONNECTIONS)
    const batch = await batches(engine.ingest, token, { ...BATCH, seconds: SECONDS })
    acknowledged = warmUp.events + single.events + batch.events
    result = { openMs, single, batch }
  } finally {
    // Everything acknowledged is in the read model before the store closes and is counted.
    await engine.settled(600_000)
    await engine.stop()
    await store.close()
  }
  try {
    return { ...result, missing: Math.max(0, acknowledged - (await countStored(dir, projectId))) }
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true })
  }
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'tis-bench-durability-template-'))
  try {
    const disk = fsyncLatency(work)
    // One migrated database with the administrator, copied for every run.
    const template = join(work, 'data')
    const store = await openPgliteStore(template, { sync: 'off' })
    await bootstrapAdmin(store, { adminEmails: [ADMIN.email], bootstrapToken: ADMIN.token })
    await store.close()

    await measure(VARIANTS[0]!.open, template) // warm-up: JIT and caches, not counted
    const runs = new Map<string, Run[]>(VARIANTS.map((v) => [v.name, []]))
    for (let round = 1; round <= ROUNDS; round++) {
      // Each round starts at another variant, so drift on a shared machine hits all alike.
      const order = VARIANTS.map((_, i) => VARIANTS[(i + round - 1) % VARIANTS.length]!)
      for (const variant of order) {
        const run = await measure(variant.open, template)
        runs.get(variant.name)?.push(run)
        console.log(
          `round ${round} ${variant.name}: ${run.single.eventsPerSecond} events/s single, ${run.batch.eventsPerSecond} events/s batch, ${run.missing} missing`,
        )
      }
    }

    const { figures, missing } = report(
      VARIANTS,
      runs,
      `Durability of the embedded store — ${ROUNDS} rounds, ${SECONDS} s each, ${CONNECTIONS} concurrent single-event requests, ${BATCH.concurrency} concurrent batches of ${BATCH.size}; write+fsync of 8 KiB on this disk: p50 ${disk.p50} µs, p99 ${disk.p99} µs; load average ${loadavg()[0]!.toFixed(1)} at the end`,
    )
    saveFigures('5-durability', figures)
    if (missing > 0) {
      console.log(`${missing} acknowledged events missing from the store`)
      process.exitCode = 1
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

await main()
