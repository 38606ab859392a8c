import type {
  DeploymentRecord,
  EventRecord,
  EventType,
  IssueRecord,
  IssueStatus,
  KeysetCursor,
  MonitorRecord,
  ReadStore,
  SpanRecord,
} from '@tis/ingest'
import { boundedDuration, boundedMetricValue } from './aggregate-bounds'
import { dateOrNull, type Row, type SqlExecutor, type SqlParam, textOrNull } from './executor'
import { isUuid } from './uuid'

const ISSUE_COLUMNS = `i.id::text as id, i.project_id::text as project_id, i.grouping_key, i.title,
  i.level, i.status, i.count, i.first_seen_at, i.last_seen_at, i.first_release, i.last_release,
  i.latest_event_id::text as latest_event_id, i.regression_count, i.regressed_in_release`

const EVENT_COLUMNS = `e.id::text as id, e.legacy_id, e.event_type, e.level, e.message,
  e.fingerprint, e.occurred_at, e.payload, e.issue_id::text as issue_id, e.environment,
  e.release, e.trace_id, e.request_id, e.session_id`

const MONITOR_COLUMNS = `m.id::text as id, m.slug, m.environment, m.status, m.last_status,
  m.last_check_in_at, m.expected_interval_seconds, m.last_release, m.check_in_count`

function toMonitor(row: Row): MonitorRecord {
  return {
    id: row['id'] as string,
    slug: row['slug'] as string,
    environment: row['environment'] as string,
    health: (row['status'] as 'ok' | 'error' | null) ?? null,
    lastStatus: row['last_status'] as string,
    lastCheckInAt: row['last_check_in_at'] as Date,
    expectedIntervalSeconds: row['expected_interval_seconds'] as number,
    lastRelease: textOrNull(row, 'last_release'),
    checkInCount: Number(row['check_in_count']),
  }
}

const DEPLOYMENT_COLUMNS = `d.id::text as id, d.repository, d.environment, d.release, d.commit_sha,
  d.branch, d.deployed_at, d.pull_request_number, d.pull_request_url, d.release_url,
  d.compare_url, d.workflow_run_url, d.deployment_url, d.release_tag, d.source`

function toDeployment(row: Row): DeploymentRecord {
  return {
    id: row['id'] as string,
    repository: row['repository'] as string,
    environment: row['environment'] as string,
    release: row['release'] as string,
    commitSha: row['commit_sha'] as string,
    branch: textOrNull(row, 'branch'),
    deployedAt: row['deployed_at'] as Date,
    pullRequestNumber: textOrNull(row, 'pull_request_number'),
    pullRequestUrl: textOrNull(row, 'pull_request_url'),
    releaseUrl: textOrNull(row, 'release_url'),
    compareUrl: textOrNull(row, 'compare_url'),
    workflowRunUrl: textOrNull(row, 'workflow_run_url'),
    deploymentUrl: textOrNull(row, 'deployment_url'),
    releaseTag: textOrNull(row, 'release_tag'),
    source: row['source'] as 'api' | 'event',
  }
}

function toIssue(row: Row): IssueRecord {
  return {
    id: row['id'] as string,
    projectId: row['project_id'] as string,
    groupingKey: row['grouping_key'] as string,
    title: row['title'] as string,
    level: row['level'] as string,
    status: row['status'] as IssueStatus,
    count: row['count'] as number,
    firstSeenAt: row['first_seen_at'] as Date,
    lastSeenAt: row['last_seen_at'] as Date,
    firstRelease: textOrNull(row, 'first_release'),
    lastRelease: textOrNull(row, 'last_release'),
    latestEventId: textOrNull(row, 'latest_event_id'),
    regressionCount: row['regression_count'] as number,
    regressedInRelease: textOrNull(row, 'regressed_in_release'),
  }
}

function toEvent(row: Row): EventRecord {
  return {
    id: row['id'] as string,
    legacyId: row['legacy_id'] as number,
    eventType: row['event_type'] as EventType,
    level: textOrNull(row, 'level'),
    message: textOrNull(row, 'message'),
    fingerprint: textOrNull(row, 'fingerprint'),
    occurredAt: row['occurred_at'] as Date,
    payload: row['payload'] as Record<string, unknown>,
    issueId: textOrNull(row, 'issue_id'),
    environment: textOrNull(row, 'environment'),
    release: textOrNull(row, 'release'),
    traceId: textOrNull(row, 'trace_id'),
    requestId: textOrNull(row, 'request_id'),
    sessionId: textOrNull(row, 'session_id'),
  }
}

const SPAN_COLUMNS = `s.id::text as id, s.trace_id, s.span_id, s.parent_span_id, s.name, s.kind,
  s.started_at, s.ended_at, s.duration_ms, s.environment, s.release, s.payload`

const statusValue = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? v : null)

/** A span's status as sent: the top-level `status`, else `context.status`. */
function spanStatus(payload: Record<string, unknown>): string | number | null {
  const context = payload['context']
  const inContext =
    typeof context === 'object' && context !== null
      ? (context as Record<string, unknown>)['status']
      : undefined
  return statusValue(payload['status']) ?? statusValue(inContext)
}

function toSpan(row: Row): SpanRecord {
  const payload = row['payload'] as Record<string, unknown>
  return {
    id: row['id'] as string,
    traceId: textOrNull(row, 'trace_id'),
    spanId: textOrNull(row, 'span_id'),
    parentSpanId: textOrNull(row, 'parent_span_id'),
    name: row['name'] as string,
    kind: textOrNull(row, 'kind'),
    startedAt: row['started_at'] as Date,
    endedAt: dateOrNull(row, 'ended_at'),
    durationMs: numberOrNull(row, 'duration_ms'),
    environment: textOrNull(row, 'environment'),
    release: textOrNull(row, 'release'),
    status: spanStatus(payload),
    level: typeof payload['level'] === 'string' ? payload['level'] : null,
    payload,
  }
}

/** A float8/numeric column as a number (drivers may return numeric as text). */
function numberOrNull(row: Row, column: string): number | null {
  const v = row[column]
  return v === null || v === undefined ? null : Number(v)
}

/** Collects `where` conditions with numbered parameters. */
function conditions(projectId: string) {
  const params: SqlParam[] = [projectId]
  const where: string[] = []
  const param = (value: SqlParam, type: string) => {
    params.push(value)
    return `$${params.length}::${type}`
  }
  return {
    params,
    where,
    param,
    /** Equality on a long user string through its md5 expression index. */
    equals(column: string, value: string | undefined) {
      if (value === undefined) return
      const p = param(value, 'text')
      where.push(`md5(${column}) = md5(${p}) and ${column} = ${p}`)
    },
    /** Plain equality on a short indexed column (environment, release, level, type). */
    is(column: string, value: string | undefined) {
      if (value !== undefined) where.push(`${column} = ${param(value, 'text')}`)
    },
    /** Case-insensitive substring match (`%` and `_` taken literally). */
    contains(column: string, value: string | undefined) {
      if (value === undefined) return
      const escaped = value.replace(/[\\%_]/g, (c) => `\\${c}`)
      where.push(`${column} ilike '%' || ${param(escaped, 'text')} || '%'`)
    },
    /** Keyset: rows strictly after the cursor in (time desc, id desc) order. */
    after(timeColumn: string, idColumn: string, cursor: KeysetCursor | undefined) {
      if (!cursor) return
      where.push(
        `(${timeColumn}, ${idColumn}) < (${param(cursor.at, 'timestamptz')}, ${param(cursor.id, 'uuid')})`,
      )
    },
    sql: () => where.map((w) => ` and ${w}`).join(''),
  }
}

/** The read methods of the inbox and event list over one executor. */
export function createReadQueries(
  db: SqlExecutor,
): Omit<ReadStore, 'issueActivity' | 'transactionLatency' | 'listCheckIns'> {
  async function findIssue(projectId: string, issueId: string) {
    if (!isUuid(issueId)) return null
    const rows = await db.query(
      `select ${ISSUE_COLUMNS} from issues i where i.project_id = $1::uuid and i.id = $2::uuid`,
      [projectId, issueId],
    )
    return rows[0] ? toIssue(rows[0]) : null
  }

  return {
    findIssue,

    async listIssues(query) {
      const c = conditions(query.projectId)
      if (query.status !== null) c.where.push(`i.status = ${c.param(query.status, 'text')}`)
      c.contains('i.title', query.q)
      if (query.environment !== undefined || query.release !== undefined) {
        const e = ['e.issue_id = i.id', 'e.project_id = i.project_id']
        if (query.environment !== undefined) {
          const p = c.param(query.environment, 'text')
          e.push(`e.environment = ${p}`)
        }
        if (query.release !== undefined) e.push(`e.release = ${c.param(query.release, 'text')}`)
        c.where.push(`exists (select 1 from events e where ${e.join(' and ')})`)
      }
      c.after('i.last_seen_at', 'i.id', query.after)
      const rows = await db.query(
        `select ${ISSUE_COLUMNS} from issues i where i.project_id = $1::uuid${c.sql()}
         order by i.last_seen_at desc, i.id desc limit ${c.param(query.limit, 'int')}`,
        c.params,
      )
      return rows.map(toIssue)
    },

    async setIssueStatus(projectId, issueId, status) {
      if (!isUuid(issueId)) return null
      const rows = await db.query(
        `update issues i set status = $3::text where i.project_id = $1::uuid and i.id = $2::uuid
         returning ${ISSUE_COLUMNS}`,
        [projectId, issueId, status],
      )
      return rows[0] ? toIssue(rows[0]) : null
    },

    async listEvents(query) {
      const c = conditions(query.projectId)
      if (query.eventType !== undefined) {
        c.where.push(`e.event_type = ${c.param(query.eventType, 'text')}`)
      }
      if (query.level !== undefined) c.where.push(`e.level = ${c.param(query.level, 'text')}`)
      c.is('e.environment', query.environment)
      c.is('e.release', query.release)
      c.equals('e.trace_id', query.traceId)
      c.equals('e.request_id', query.requestId)
      c.equals('e.session_id', query.sessionId)
      c.equals('e.user_id', query.userId)
      if (query.issueId !== undefined) {
        c.where.push(`e.issue_id = ${c.param(query.issueId, 'uuid')}`)
      }
      c.contains('e.message', query.q)
      if (query.since) c.where.push(`e.occurred_at >= ${c.param(query.since, 'timestamptz')}`)
      if (query.until) c.where.push(`e.occurred_at < ${c.param(query.until, 'timestamptz')}`)
      c.after('e.occurred_at', 'e.id', query.after)
      const rows = await db.query(
        `select ${EVENT_COLUMNS} from events e where e.project_id = $1::uuid${c.sql()}
         order by e.occurred_at desc, e.id desc limit ${c.param(query.limit, 'int')}`,
        c.params,
      )
      return rows.map(toEvent)
    },

    async listMonitors(query) {
      const c = conditions(query.projectId)
      c.equals('m.environment', query.environment)
      c.equals('m.slug', query.slug)
      c.after('m.last_check_in_at', 'm.id', query.after)
      const rows = await db.query(
        `select ${MONITOR_COLUMNS} from monitors m where m.project_id = $1::uuid${c.sql()}
         order by m.last_check_in_at desc, m.id desc limit ${c.param(query.limit, 'int')}`,
        c.params,
      )
      return rows.map(toMonitor)
    },

    async findMonitor(projectId, monitorId) {
      if (!isUuid(monitorId)) return null
      const rows = await db.query(
        `select ${MONITOR_COLUMNS} from monitors m where m.project_id = $1::uuid and m.id = $2::uuid`,
        [projectId, monitorId],
      )
      return rows[0] ? toMonitor(rows[0]) : null
    },

    async listDeployments(query) {
      const c = conditions(query.projectId)
      c.equals('d.environment', query.environment)
      c.equals('d.release', query.release)
      c.equals('d.repository', query.repository)
      if (query.deployedBefore) {
        c.where.push(`d.deployed_at <= ${c.param(query.deployedBefore, 'timestamptz')}`)
      }
      c.after('d.deployed_at', 'd.id', query.after)
      const rows = await db.query(
        `select ${DEPLOYMENT_COLUMNS} from deployments d where d.project_id = $1::uuid${c.sql()}
         order by d.deployed_at desc, d.id desc limit ${c.param(query.limit, 'int')}`,
        c.params,
      )
      return rows.map(toDeployment)
    },

    async findEvent(projectId, eventId) {
      if (!isUuid(eventId)) return null
      const rows = await db.query(
        `select ${EVENT_COLUMNS} from events e where e.project_id = $1::uuid and e.id = $2::uuid`,
        [projectId, eventId],
      )
      return rows[0] ? toEvent(rows[0]) : null
    },

    async listRelatedEvents(query) {
      const c = conditions(query.projectId)
      const any: string[] = []
      const match = (column: string, value: string | null) => {
        if (value === null) return
        const p = c.param(value, 'text')
        any.push(`(md5(${column}) = md5(${p}) and ${column} = ${p})`)
      }
      match('e.trace_id', query.traceId)
      match('e.request_id', query.requestId)
      match('e.session_id', query.sessionId)
      if (any.length === 0) return []
      c.where.push(`e.id <> ${c.param(query.eventId, 'uuid')}`, `(${any.join(' or ')})`)
      const rows = await db.query(
        `select ${EVENT_COLUMNS} from events e where e.project_id = $1::uuid${c.sql()}
         order by e.occurred_at desc, e.id desc limit ${c.param(query.limit, 'int')}`,
        c.params,
      )
      return rows.map(toEvent)
    },

    async summarizeTransactions(query) {
      const c = conditions(query.projectId)
      const since = c.param(query.since, 'timestamptz')
      const until = c.param(query.until, 'timestamptz')
      c.where.push(`e.occurred_at >= ${since}`, `e.occurred_at < ${until}`)
      c.is('e.environment', query.environment)
      c.is('e.release', query.release)
      // Aggregated by name_key over the covering index (index-only); the names of the groups
      // shown are then looked up, one row each. Out-of-range durations are not timed.
      const duration = boundedDuration('e.duration_ms')
      const rows = await db.query(
        `with agg as (
           select e.name_key, count(*) as count,
             count(*) filter (where e.is_error) as error_count,
             percentile_cont(0.5) within group (order by ${duration}) as p50,
             percentile_cont(0.95) within group (order by ${duration}) as p95,
             percentile_cont(0.99) within group (order by ${duration}) as p99,
             avg(${duration}) as avg
           from events e where e.project_id = $1::uuid and e.event_type = 'transaction'${c.sql()}
           group by e.name_key order by count desc, e.name_key
           limit ${c.param(query.limit, 'int')}
         )
         select agg.*, (
           select coalesce(x.transaction_name, x.message, '') from events x
            where x.project_id = $1::uuid and x.event_type = 'transaction'
              and x.occurred_at >= ${since} and x.occurred_at < ${until}
              and x.name_key = agg.name_key
            limit 1) as name
         from agg order by count desc, name`,
        c.params,
      )
      return rows.map((row) => ({
        name: row['name'] as string,
        count: Number(row['count']),
        errorCount: Number(row['error_count']),
        p50: numberOrNull(row, 'p50'),
        p95: numberOrNull(row, 'p95'),
        p99: numberOrNull(row, 'p99'),
        avg: numberOrNull(row, 'avg'),
      }))
    },

    async metricBuckets(query) {
      const c = conditions(query.projectId)
      const since = c.param(query.since, 'timestamptz')
      const interval = c.param(query.intervalSeconds, 'int')
      // name_key is md5(message) as a uuid: the covering index answers without the table.
      c.where.push(
        `e.name_key = md5(${c.param(query.name, 'text')})::uuid`,
        `e.occurred_at >= ${since}`,
        `e.occurred_at < ${c.param(query.until, 'timestamptz')}`,
      )
      c.is('e.environment', query.environment)
      c.is('e.release', query.release)
      // A value of magnitude above 1e20 (an old database's) counts, but is not aggregated.
      const value = boundedMetricValue('e.value')
      const rows = await db.query(
        `select floor(extract(epoch from e.occurred_at - ${since}) / ${interval})::int as k,
           count(*) as count, sum(${value}) as sum, min(${value}) as min, max(${value}) as max,
           avg(${value}) as avg
         from events e where e.project_id = $1::uuid and e.event_type = 'metric'${c.sql()}
         group by 1 order by 1`,
        c.params,
      )
      return rows.map((row) => ({
        start: new Date(
          query.since.getTime() + (row['k'] as number) * query.intervalSeconds * 1000,
        ),
        count: Number(row['count']),
        sum: numberOrNull(row, 'sum'),
        min: numberOrNull(row, 'min'),
        max: numberOrNull(row, 'max'),
        avg: numberOrNull(row, 'avg'),
      }))
    },

    async listTraceSpans(projectId, traceId, limit) {
      const c = conditions(projectId)
      c.equals('s.trace_id', traceId)
      const rows = await db.query(
        `select ${SPAN_COLUMNS} from spans s where s.project_id = $1::uuid${c.sql()}
         order by s.started_at, s.id limit ${c.param(limit, 'int')}`,
        c.params,
      )
      return rows.map(toSpan)
    },

    async listRootSpans(query) {
      const c = conditions(query.projectId)
      c.where.push(
        's.parent_span_id is null',
        `s.kind in (${query.kinds.map((k) => c.param(k, 'text')).join(', ')})`,
      )
      if (query.since) c.where.push(`s.started_at >= ${c.param(query.since, 'timestamptz')}`)
      if (query.until) c.where.push(`s.started_at < ${c.param(query.until, 'timestamptz')}`)
      c.is('s.environment', query.environment)
      c.is('s.release', query.release)
      c.contains('s.name', query.q)
      c.after('s.started_at', 's.id', query.after)
      const rows = await db.query(
        `select ${SPAN_COLUMNS} from spans s where s.project_id = $1::uuid${c.sql()}
         order by s.started_at desc, s.id desc limit ${c.param(query.limit, 'int')}`,
        c.params,
      )
      return rows.map(toSpan)
    },
  }
}
