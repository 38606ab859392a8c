import {
  type ProjectExpiry,
  type RetentionPassOptions,
  type RetentionReport,
  type RetentionStore,
  STORAGE_USAGE_EXACT_ROWS,
  type StorageUsage,
  type UsageFigure,
} from '@tis/ingest'
import { artifactUsageOf } from './artifacts/bundles'
import {
  countExpiredArtifactBundles,
  expireArtifactBundles,
  expireArtifactChunks,
} from './artifacts/expiry'
import type { SqlExecutor } from './executor'
import { spanKey } from './log/append'
import { countExpiredSessions, expireSessions } from './session-retention'
import { isUuid } from './uuid'

// Retention. Events, spans and check-ins are plain tables (docs/scaling.md has the
// partitioning proposal), so expiry deletes, in short transactions of at most `batchSize` rows
// found through the (project, time) indexes, and drops each deleted record's idempotency key in
// the same transaction. The ingest log's daily partitions are dropped once read (log/partitions.ts).
// Several instances may run passes at once: each batch deletes rows that still exist, so a
// row goes once, and the counts add up to what was deleted.

const DAY_MS = 86_400_000

// Per kind: the rows of a project older than the cutoff (oldest first, through its index), and
// what each deleted row's idempotency key is (`ingest_keys`, migration 12).
const DELETE_EVENTS = /* sql */ `
delete from events e
 using (select id from events where project_id = $1::uuid and occurred_at < $2::timestamptz
         order by occurred_at limit $3::int) doomed
 where e.id = doomed.id
returning e.id::text as key`

const DELETE_SPANS = /* sql */ `
delete from spans s
 using (select id from spans where project_id = $1::uuid and started_at < $2::timestamptz
         order by started_at limit $3::int) doomed
 where s.id = doomed.id
returning s.id::text as id, s.trace_id, s.span_id`

// Check-ins of `check_in` events go with their event (on delete cascade); these are the others.
const DELETE_CHECK_INS = /* sql */ `
delete from check_ins c
 using (select c2.id from monitors m
          cross join lateral (select id from check_ins
                               where monitor_id = m.id and occurred_at < $2::timestamptz
                               order by occurred_at limit $3::int) c2
         where m.project_id = $1::uuid
         limit $3::int) doomed
 where c.id = doomed.id
returning c.id::text as key`

const DROP_KEYS = /* sql */ `
delete from ingest_keys k using unnest($1::uuid[]) as gone(key)
 where k.key = gone.key and k.kind = $2::text`

const COUNT = {
  events: `select count(*)::int as n from events where project_id = $1::uuid and occurred_at < $2::timestamptz`,
  spans: `select count(*)::int as n from spans where project_id = $1::uuid and started_at < $2::timestamptz`,
  checkIns: `select count(*)::int as n from check_ins c join monitors m on m.id = c.monitor_id
              where m.project_id = $1::uuid and c.occurred_at < $2::timestamptz`,
}

// An issue whose last event is older than the cutoff has no event left once the pass is done:
// it stays (totals, first and last seen), marked until a newer event moves `last_seen_at`.
const MARK_ISSUES = /* sql */ `
update issues set events_expired_at = $2::timestamptz
 where project_id = $1::uuid and last_seen_at < $2::timestamptz
   and (events_expired_at is null or events_expired_at < last_seen_at)`
const COUNT_ISSUES = /* sql */ `
select count(*)::int as n from issues
 where project_id = $1::uuid and last_seen_at < $2::timestamptz
   and (events_expired_at is null or events_expired_at < last_seen_at)`

interface ProjectRow {
  id: string
  name: string
  days: number
}

type Kind = 'events' | 'spans' | 'checkIns'

/** Retention queries over one executor. */
export function createRetentionQueries(db: SqlExecutor): RetentionStore {
  async function deleteBatch(kind: Kind, projectId: string, cutoff: Date, limit: number) {
    return db.transaction(async (tx) => {
      const params = [projectId, cutoff, limit]
      if (kind === 'spans') {
        const rows = await tx.query<{
          id: string
          trace_id: string | null
          span_id: string | null
        }>(DELETE_SPANS, params)
        const keys = rows.flatMap((r) =>
          r.trace_id !== null && r.span_id !== null
            ? [spanKey(projectId, r.trace_id, r.span_id)]
            : [],
        )
        // A span sent with its own event_id is keyed by it only when it lacks trace/span ids.
        keys.push(...rows.filter((r) => r.trace_id === null || r.span_id === null).map((r) => r.id))
        if (keys.length > 0) await tx.query(DROP_KEYS, [keys, 'span'])
        return rows.length
      }
      const rows = await tx.query<{ key: string }>(
        kind === 'events' ? DELETE_EVENTS : DELETE_CHECK_INS,
        params,
      )
      if (rows.length > 0) {
        const keys = rows.map((r) => r.key)
        await tx.query(DROP_KEYS, [keys, kind === 'events' ? 'event' : 'check_in'])
      }
      return rows.length
    })
  }

  async function expire(
    kind: Kind,
    projectId: string,
    cutoff: Date,
    batchSize: number,
    signal?: AbortSignal,
  ) {
    let total = 0
    while (!signal?.aborted) {
      const deleted = await deleteBatch(kind, projectId, cutoff, batchSize)
      total += deleted
      if (deleted < batchSize) return total
    }
    return total
  }

  async function count(sql: string, projectId: string, cutoff: Date) {
    const [row] = await db.query<{ n: number }>(sql, [projectId, cutoff])
    return row?.n ?? 0
  }

  return {
    async expireTelemetry(options: RetentionPassOptions): Promise<RetentionReport> {
      const dryRun = options.dryRun ?? false
      if (options.projectId !== undefined && !isUuid(options.projectId)) {
        return { dryRun, projects: [], artifactChunks: 0 }
      }
      const projects = await db.query<ProjectRow>(
        `select id::text as id, name, coalesce(retention_days, $1::int) as days from projects
          where ($2::uuid is null or id = $2::uuid) order by name, id`,
        [options.defaultDays, options.projectId ?? null],
      )
      const out: ProjectExpiry[] = []
      for (const project of projects) {
        if (project.days <= 0 || options.signal?.aborted) continue
        const cutoff = new Date(options.now.getTime() - project.days * DAY_MS)
        const figures = {
          events: 0,
          spans: 0,
          checkIns: 0,
          issues: 0,
          artifactBundles: 0,
          sessionMinutes: 0,
        }
        for (const kind of ['checkIns', 'spans', 'events'] as const) {
          figures[kind] = dryRun
            ? await count(COUNT[kind], project.id, cutoff)
            : await expire(kind, project.id, cutoff, options.batchSize, options.signal)
        }
        if (dryRun) figures.issues = await count(COUNT_ISSUES, project.id, cutoff)
        else {
          const marked = await db.query(`${MARK_ISSUES} returning 1`, [project.id, cutoff])
          figures.issues = marked.length
        }
        figures.sessionMinutes = dryRun
          ? await countExpiredSessions(db, project.id, cutoff)
          : await expireSessions(db, project.id, cutoff, options.batchSize, options.signal)
        figures.artifactBundles = dryRun
          ? await countExpiredArtifactBundles(db, project.id, cutoff)
          : await expireArtifactBundles(db, project.id, cutoff, options.batchSize, options.signal)
        out.push({
          projectId: project.id,
          projectName: project.name,
          days: project.days,
          cutoff,
          ...figures,
        })
      }
      // Chunks belong to no project: only a pass over all of them prunes them.
      const artifactChunks =
        options.projectId === undefined && !options.signal?.aborted
          ? await expireArtifactChunks(db, options.now, dryRun)
          : 0
      return { dryRun, projects: out, artifactChunks }
    },

    async setProjectRetention(projectId, days) {
      if (!isUuid(projectId)) return false
      const rows = await db.query(
        'update projects set retention_days = $2::int where id = $1::uuid returning 1',
        [projectId, days],
      )
      return rows.length > 0
    },

    async getProjectRetention(projectId) {
      if (!isUuid(projectId)) return undefined
      const [row] = await db.query<{ days: number | null }>(
        'select retention_days as days from projects where id = $1::uuid',
        [projectId],
      )
      return row === undefined ? undefined : row.days
    },

    async storageUsage(projectId, options = {}): Promise<StorageUsage> {
      // Rows by count through the project's index up to a cap, beyond it from a sample; bytes as
      // the rows' share of their table (heap, indexes, TOAST) by its average row size.
      const cap = Math.max(0, Math.floor(options.exactRowsUpTo ?? STORAGE_USAGE_EXACT_ROWS))
      const [tuples] = await db.query<Record<string, number>>(TUPLES)
      const pct = (kind: string) =>
        Math.min(
          100,
          Math.max(0.01, (SAMPLE_ROWS * 100) / Math.max(1, Number(tuples?.[kind] ?? 0))),
        )
      const [row] = await db.query<Record<string, number>>(USAGE, [
        projectId,
        cap,
        pct('events'),
        pct('spans'),
        pct('check_ins'),
      ])
      const figure = (kind: string): UsageFigure => {
        const rows = Number(row?.[`${kind}_rows`] ?? 0)
        const perRow = Number(row?.[`${kind}_per_row`] ?? 0)
        return { rows, bytes: Math.round(rows * perRow) }
      }
      const events = figure('events')
      const spans = figure('spans')
      const checkIns = figure('check_ins')
      const stored = isUuid(projectId)
        ? await artifactUsageOf(db, projectId)
        : { bundles: 0, bytes: 0 }
      const artifacts = { rows: stored.bundles, bytes: stored.bytes }
      const totalBytes = events.bytes + spans.bytes + checkIns.bytes + artifacts.bytes
      return { events, spans, checkIns, artifacts, totalBytes }
    },
  }
}

// The table's rows from its statistics once analysed (a count before: a new, small table).
const perRow = (table: string) => /* sql */ `
  (select pg_total_relation_size(c.oid)::float8
          / greatest(case when c.reltuples > 0 then c.reltuples
                          else (select count(*) from ${table}) end, 1)
     from pg_class c where c.oid = '${table}'::regclass)`

/** Rows a usage sample reads, about: enough for a share within a percent or so. */
const SAMPLE_ROWS = 50_000

/** The tables' row counts from their statistics (-1 or 0 before the first analyse). */
const TUPLES = /* sql */ `
select (select reltuples from pg_class where oid = 'events'::regclass)::float8 as events,
       (select reltuples from pg_class where oid = 'spans'::regclass)::float8 as spans,
       (select reltuples from pg_class where oid = 'check_ins'::regclass)::float8 as check_ins`

/**
 * A project's rows of `table`: counted through its index up to `$2`; beyond, its share of a
 * block sample of `pct` percent of the table (about {@link SAMPLE_ROWS} rows, the whole table
 * when it is smaller) scaled up, and never less than the count reached.
 */
const rowsOf = (table: string, pct: string) => /* sql */ `
  (select case when e.n <= $2::int then e.n else greatest(e.n, (
            select count(*) filter (where s.project_id = $1::uuid)::float8 * 100 / ${pct}
              from ${table} s tablesample system (${pct}) repeatable (0))) end
     from (select count(*)::float8 as n
             from (select 1 from ${table} where project_id = $1::uuid limit $2::int + 1) x) e)`

const USAGE = /* sql */ `
select ${rowsOf('events', '$3::float8')} as events_rows,
       ${perRow('events')} as events_per_row,
       ${rowsOf('spans', '$4::float8')} as spans_rows,
       ${perRow('spans')} as spans_per_row,
       ${rowsOf('check_ins', '$5::float8')} as check_ins_rows,
       ${perRow('check_ins')} as check_ins_per_row`
