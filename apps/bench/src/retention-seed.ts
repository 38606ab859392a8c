// The data of the retention bench: one project's events and spans spread over DAYS days, with
// what the projection leaves beside them and the retention pass touches too — the check-ins of
// check_in events (deleted with their event, on delete cascade) and the idempotency key of every
// event and span (`ingest_keys`; SDKs send an event_id with every event).
import { spanKey } from '@tis/storage-postgres'
import postgres from 'postgres'
import { seed } from './read-seed'
import { eventsSql, type SeedShape } from './read-seed-sql'

/** The shape of the retention bench's project: `events` events over `days` days, tag `main`. */
export function retentionShape(events: number, days: number): SeedShape {
  return { tag: 'main', events, issues: 2_000, spans: Math.round(events / 5), days }
}

const p = (projectId: string) => `'${projectId.replaceAll("'", "''")}'::uuid`

/** A monitor for every slug and environment of the check_in events, as the projection makes them. */
const monitorsSql = (projectId: string) => /* sql */ `
insert into monitors (project_id, slug, environment, status, status_at, last_status,
  last_check_in_at, expected_interval_seconds, check_in_count, created_at, updated_at)
select distinct ${p(projectId)}, message, environment, 'ok', now(), 'ok', now(), 3600, 0, now(),
  now()
from events where project_id = ${p(projectId)} and event_type = 'check_in'
on conflict do nothing`

/** The `check_ins` row of every check_in event (source `event`, as batch-rows.ts writes it). */
const checkInsSql = (projectId: string) => /* sql */ `
insert into check_ins (monitor_id, project_id, slug, status, environment, release, occurred_at,
  received_at, trace_id, request_id, source, event_id)
select m.id, e.project_id, e.message, 'ok', e.environment, e.release, e.occurred_at,
  e.received_at, e.trace_id, e.request_id, 'event', e.id
from events e join monitors m on m.project_id = e.project_id and md5(m.slug) = md5(e.message)
  and md5(m.environment) = md5(e.environment)
where e.project_id = ${p(projectId)} and e.event_type = 'check_in'`

/** The key `spanKey` (@tis/storage-postgres) derives (a UUID v8 from SHA-256 of the NUL-joined parts), in SQL. */
const SPAN_KEY = /* sql */ `
encode(set_byte(set_byte(h, 6, 128 | (get_byte(h, 6) & 15)), 8, 128 | (get_byte(h, 8) & 63)),
  'hex')::uuid`

const keysSql = (projectId: string) => [
  /* sql */ `
insert into ingest_keys (kind, key, project_id, id, seq)
select 'event', id, project_id, id, legacy_id from events where project_id = ${p(projectId)}
on conflict do nothing`,
  /* sql */ `
insert into ingest_keys (kind, key, project_id, id, seq)
select 'span', ${SPAN_KEY}, project_id, id, legacy_id
from (select id, project_id, legacy_id, substring(sha256('span'::bytea || '\\x00'::bytea
    || convert_to(lower(project_id::text), 'UTF8') || '\\x00'::bytea
    || convert_to(trace_id, 'UTF8') || '\\x00'::bytea || convert_to(span_id, 'UTF8'))
    from 1 for 16) as h
  from spans where project_id = ${p(projectId)}) s
on conflict do nothing`,
]

/**
 * Seeds the project (read-seed.ts: indexes rebuilt, `VACUUM ANALYZE`), then its monitors,
 * check-ins and idempotency keys. Returns the seconds of each step.
 */
export async function seedRetention(url: string, projectId: string, shape: SeedShape) {
  const timings = await seed(url, [{ projectId, shape }])
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const step = async (name: string, statements: string[]) => {
      const started = performance.now()
      for (const s of statements) await sql.unsafe(s)
      timings[name] = (performance.now() - started) / 1000
    }
    await step('check-ins', [monitorsSql(projectId), checkInsSql(projectId)])
    await step('idempotency keys', keysSql(projectId))
    const [span] = await sql<Array<{ trace_id: string; span_id: string; key: string }>>`
      select s.trace_id, s.span_id, k.key::text as key from spans s
        join ingest_keys k on k.id = s.id and k.kind = 'span'
       where s.project_id = ${projectId} limit 1`
    if (span && span.key !== spanKey(projectId, span.trace_id, span.span_id)) {
      throw new Error('the seeded span keys differ from the keys ingest derives')
    }
    await step('vacuum analyze', ['vacuum analyze check_ins, ingest_keys, monitors'])
  } finally {
    await sql.end()
  }
  return timings
}

/**
 * Inserts `events` new events of the last day with their idempotency keys, the live indexes and
 * foreign keys in place (as ingest writes), on two connections. Returns the seconds it took.
 */
export async function insertAgain(url: string, projectId: string, events: number) {
  const shape = { ...retentionShape(events, 1) }
  const mid = Math.floor(events / 2)
  const sql = postgres(url, { max: 2, onnotice: () => {} })
  const started = performance.now()
  try {
    await Promise.all(
      [
        { from: 1, to: mid },
        { from: mid + 1, to: events },
      ].map((part) =>
        sql.unsafe(/* sql */ `
with fresh as (${eventsSql(projectId, shape, part)} returning id, project_id, legacy_id)
insert into ingest_keys (kind, key, project_id, id, seq)
select 'event', id, project_id, id, legacy_id from fresh`),
      ),
    )
  } finally {
    await sql.end()
  }
  return (performance.now() - started) / 1000
}
