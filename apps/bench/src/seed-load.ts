import type { WriteOp } from '@tis/ingest'
import type { PostgresIngestStore } from '@tis/storage-postgres'

/** The store's side of a seeding: the ingest log's append and the projection behind it. */
export type SeedStore = Pick<
  PostgresIngestStore,
  'append' | 'project' | 'pendingTarget' | 'maintainLog' | 'setIssueStatus'
>

/** Ops per append (one statement each). */
const APPEND_BATCH = 2_000
/** Log entries per projection round (one transaction each). */
const PROJECT_ROUND = 5_000

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** `ops` in arrays of at most `size`. */
function* batches<T>(ops: Iterable<T>, size: number): Generator<T[]> {
  let batch: T[] = []
  for (const op of ops) {
    batch.push(op)
    if (batch.length === size) {
      yield batch
      batch = []
    }
  }
  if (batch.length > 0) yield batch
}

/** Projects until the log holds nothing the projection has not passed (another projector may share it). */
async function projectAll(store: SeedStore, appending: () => boolean) {
  for (;;) {
    const round = await store.project(PROJECT_ROUND)
    if (round.projected > 0) continue
    if (!appending() && (await store.pendingTarget()) === null) return
    await sleep(round.busy ? 50 : 10)
  }
}

/**
 * Appends `ops` to the ingest log (as acceptance does, `APPEND_BATCH` per statement) while the
 * projection writes the read model behind it on a second connection, and resolves once the
 * projection has passed every one. Fails on an op the log answers as a repeat: seeded records
 * are new. Resolves the ops appended.
 */
export async function appendAndProject(store: SeedStore, ops: Iterable<WriteOp>): Promise<number> {
  let appending = true
  let appended = 0
  const projection = projectAll(store, () => appending)
  try {
    for (const batch of batches(ops, APPEND_BATCH)) {
      const results = await store.append(batch)
      const repeat = results.find((r) => r.existing)
      if (repeat) throw new Error(`a seeded record repeats a stored one: ${repeat.id}`)
      appended += batch.length
    }
  } finally {
    appending = false
    await projection
  }
  return appended
}
