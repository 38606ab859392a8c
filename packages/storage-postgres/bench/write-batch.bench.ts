// writeBatch throughput: batches of 200 events (half of them errors over 10 issues) on PGlite
// (memory and disk) and on a durable PostgreSQL (fsync on; TEST_DATABASE_URL or embedded).
// Run: pnpm --filter @tis/storage-postgres bench
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { WriteOp } from '@tis/ingest'
import { startTestPostgres } from '@tis/test-utils/postgres'
import { openPgliteStore, openPostgresStore, type PostgresIngestStore } from '../src/index'

const BATCH = 200
const WARMUP = 5
const ROUNDS = 50

function batchOf(projectId: string): WriteOp[] {
  return Array.from({ length: BATCH }, (_, i) => {
    const at = new Date()
    const error = i % 2 === 0
    const hash = `${(i % 10).toString(16)}`.repeat(64)
    return {
      type: 'event',
      id: randomUUID(),
      projectId,
      receivedAt: at,
      occurredAt: at,
      event: {
        event_type: error ? 'error' : 'log',
        message: error ? `TypeError: x is undefined (${i % 10})` : `request ${i} served`,
        level: error ? 'error' : 'info',
        occurred_at: at.toISOString(),
        environment: 'production',
        release: '1.4.2',
        trace_id: randomUUID(),
        request_id: randomUUID(),
        context: {
          environment: 'production',
          release: '1.4.2',
          tags: { region: 'eu-west-1', host: `web-${i % 4}` },
          request: { method: 'GET', path: `/items/${i}`, headers: { 'user-agent': 'bench' } },
        },
      },
      issue: error ? { hash, key: `message:${hash}`, title: 'TypeError', level: 'error' } : null,
      monitor: null,
      deployment: null,
    } satisfies WriteOp
  })
}

async function measure(name: string, store: PostgresIngestStore): Promise<void> {
  const userId = randomUUID()
  const projectId = randomUUID()
  const now = new Date()
  await store.createUser({
    id: userId,
    email: `${userId}@bench`,
    tokenDigest: userId,
    createdAt: now,
  })
  await store.createProject({
    id: projectId,
    name: 'bench',
    integrationKind: 'node',
    ownerId: userId,
    createdAt: now,
  })
  for (let i = 0; i < WARMUP; i++) await store.writeBatch(batchOf(projectId))
  const batches = Array.from({ length: ROUNDS }, () => batchOf(projectId))
  const times: number[] = []
  const start = performance.now()
  for (const batch of batches) {
    const t = performance.now()
    await store.writeBatch(batch)
    times.push(performance.now() - t)
  }
  const seconds = (performance.now() - start) / 1_000
  times.sort((a, b) => a - b)
  const p = (q: number) =>
    times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1)
  const rate = Math.round((BATCH * ROUNDS) / seconds).toLocaleString('en')
  console.log(
    `${name.padEnd(28)} ${rate.padStart(8)} rows/s   batch p50 ${p(0.5)} ms, p95 ${p(0.95)} ms`,
  )
}

const dir = await mkdtemp(join(tmpdir(), 'tis-bench-pglite-'))
try {
  const memory = await openPgliteStore(undefined)
  await measure('PGlite (memory)', memory)
  await memory.close()
  const disk = await openPgliteStore(dir)
  await measure('PGlite (disk)', disk)
  await disk.close()
} finally {
  await rm(dir, { recursive: true, force: true })
}

const pg = await startTestPostgres({ durable: true })
try {
  const store = await openPostgresStore(pg.url)
  await measure(`PostgreSQL (${pg.source}, fsync on)`, store)
  await store.close()
} finally {
  await pg.stop()
}
