import type { ProbeTable, StoreProbe } from '@tis/test-utils/store-contract'
import type { Row, SqlExecutor } from '../src/executor'

const TABLES: Record<ProbeTable, string> = {
  events: 'events',
  spans: 'spans',
  issues: 'issues',
  monitors: 'monitors',
  check_ins: 'check_ins',
  deployments: 'deployments',
}

const KEY_MATCH = (alias: string, column: string, param: string) =>
  `md5(${alias}.${column}) = md5(${param}) and ${alias}.${column} = ${param}`

/** The contract suite's read access to the tables, over the package's own executor. */
export function createSqlProbe(db: SqlExecutor): StoreProbe {
  const one = async (text: string, params: string[]): Promise<Row | null> =>
    (await db.query(text, params))[0] ?? null
  return {
    async count(table, projectId) {
      const row = await one(
        `select count(*)::int as n from ${TABLES[table]} where project_id = $1::uuid`,
        [projectId],
      )
      return row?.['n'] as number
    },
    async issue(projectId, hash) {
      const r = await one(
        `select id::text as id, title, level, status, count, first_seen_at, last_seen_at,
                first_release, last_release, latest_event_id::text as latest_event_id
           from issues where project_id = $1::uuid and hash = $2::text`,
        [projectId, hash],
      )
      if (!r) return null
      return {
        id: r['id'] as string,
        title: r['title'] as string,
        level: r['level'] as string,
        status: r['status'] as string,
        count: r['count'] as number,
        firstSeenAt: r['first_seen_at'] as Date,
        lastSeenAt: r['last_seen_at'] as Date,
        firstRelease: r['first_release'] as string | null,
        lastRelease: r['last_release'] as string | null,
        latestEventId: r['latest_event_id'] as string | null,
      }
    },
    async eventIssueId(eventId) {
      const r = await one('select issue_id::text as issue_id from events where id = $1::uuid', [
        eventId,
      ])
      return r ? (r['issue_id'] as string | null) : undefined
    },
    async monitor(projectId, slug, environment) {
      const r = await one(
        `select * from monitors m where m.project_id = $1::uuid
            and ${KEY_MATCH('m', 'slug', '$2::text')} and ${KEY_MATCH('m', 'environment', '$3::text')}`,
        [projectId, slug, environment],
      )
      if (!r) return null
      return {
        id: r['id'] as string,
        status: r['status'] as 'ok' | 'error' | null,
        lastStatus: r['last_status'] as string,
        lastCheckInAt: r['last_check_in_at'] as Date,
        lastRelease: r['last_release'] as string | null,
        lastDurationMs: r['last_duration_ms'] as number | null,
        expectedIntervalSeconds: r['expected_interval_seconds'] as number,
        checkInCount: r['check_in_count'] as number,
      }
    },
    async checkIns(projectId, slug, environment) {
      const rows = await db.query(
        `select c.status, c.source, c.event_id::text as event_id
           from check_ins c join monitors m on m.id = c.monitor_id
          where m.project_id = $1::uuid
            and ${KEY_MATCH('m', 'slug', '$2::text')} and ${KEY_MATCH('m', 'environment', '$3::text')}
          order by c.occurred_at, c.received_at`,
        [projectId, slug, environment],
      )
      return rows.map((r) => ({
        status: r['status'] as string,
        source: r['source'] as 'check_in' | 'event' | 'scheduler',
        eventId: r['event_id'] as string | null,
      }))
    },
    async deployment(projectId, repository, environment, release) {
      const r = await one(
        `select d.id::text as id, d.legacy_id, d.commit_sha, d.branch, d.source
           from deployments d where d.project_id = $1::uuid
            and ${KEY_MATCH('d', 'repository', '$2::text')}
            and ${KEY_MATCH('d', 'environment', '$3::text')}
            and ${KEY_MATCH('d', 'release', '$4::text')}`,
        [projectId, repository, environment, release],
      )
      if (!r) return null
      return {
        id: r['id'] as string,
        legacyId: r['legacy_id'] as number,
        commitSha: r['commit_sha'] as string,
        branch: r['branch'] as string | null,
        source: r['source'] as 'api' | 'event',
      }
    },
    async exec(sql) {
      await db.query(sql)
    },
    query: <T>(sql: string, params: readonly string[] = []) =>
      db.query(sql, params) as Promise<T[]>,
  }
}
