// The data of the retention bench: one project's events and spans spread over DAYS days, with
// what the projection leaves beside them and the retention pass touches too — the check-ins of
// check_in events (deleted with their event, on delete cascade) and the idempotency key of every
// event and span (`ingest_keys`; SDKs send an event_id with every event). All of it is written
// by the store's append and projection (read-seed.ts), so the keys are the ones acceptance
// claims and the check-ins the ones the projection writes.
import { createPostgresStore } from '@tis/storage-postgres'
import postgres from 'postgres'
import { seed } from './read-seed'
import { appendAndProject } from './seed-load'
import { eventOps } from './seed-ops'
import type { SeedShape } from './seed-shape'

/** The shape of the retention bench's project: `events` events over `days` days, tag `main`. */
export function retentionShape(events: number, days: number): SeedShape {
  return { tag: 'main', events, issues: 2_000, spans: Math.round(events / 5), days }
}

/**
 * Seeds the project with an idempotency key for every record (read-seed.ts: through the log,
 * indexes rebuilt, `VACUUM ANALYZE`) and checks that every event and span has its key and every
 * check_in event its check-in. Returns the seconds of each step.
 */
export async function seedRetention(url: string, projectId: string, shape: SeedShape) {
  const timings = await seed(url, [{ projectId, shape, keys: true }])
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const [counts] = await sql<Array<Record<string, number>>>`
      select (select count(*)::int from events where project_id = ${projectId}) as events,
        (select count(*)::int from spans where project_id = ${projectId}) as spans,
        (select count(*)::int from events where project_id = ${projectId}
          and event_type = 'check_in') as check_in_events,
        (select count(*)::int from check_ins where project_id = ${projectId}) as check_ins,
        (select count(*)::int from ingest_keys where project_id = ${projectId}
          and kind = 'event') as event_keys,
        (select count(*)::int from ingest_keys where project_id = ${projectId}
          and kind = 'span') as span_keys`
    const c = counts ?? {}
    if (c['event_keys'] !== c['events'] || c['span_keys'] !== c['spans']) {
      throw new Error(`a seeded record has no idempotency key: ${JSON.stringify(c)}`)
    }
    if (c['check_ins'] !== c['check_in_events']) {
      throw new Error(`a check_in event has no check-in: ${JSON.stringify(c)}`)
    }
  } finally {
    await sql.end()
  }
  return timings
}

/**
 * Appends `events` new events of the last day, each with its idempotency key, and projects
 * them, the live indexes and foreign keys in place (as ingest writes). Returns the seconds it
 * took.
 */
export async function insertAgain(url: string, projectId: string, events: number) {
  const sql = postgres(url, { max: 2, onnotice: () => {} })
  const started = performance.now()
  try {
    const ops = eventOps(
      projectId,
      retentionShape(events, 1),
      { from: 1, to: events },
      {
        keys: true,
        now: Date.now(),
      },
    )
    await appendAndProject(createPostgresStore(sql), ops)
  } finally {
    await sql.end()
  }
  return (performance.now() - started) / 1000
}
