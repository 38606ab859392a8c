// The SQL that bulk-seeds one project for the read benchmark. Every value is derived from
// generate_series and random() (seeded with setseed), shaped like the rows the server writes
// (packages/storage-postgres/src/batch-rows.ts): top-level fields copied into `context`,
// status_code and value filled as migration 0006 fills them; name_key and is_error as the
// write path fills them (migration 0008).

/** What one project gets. */
export interface SeedShape {
  /** Distinguishes the deterministic ids (issues, traces, sessions) of each project. */
  readonly tag: string
  readonly events: number
  readonly issues: number
  readonly spans: number
  /** Days the events and spans cover, ending now. @default 7 */
  readonly days?: number
}

const seconds = (s: SeedShape) => (s.days ?? 7) * 86_400

const lit = (s: string) => `'${s.replaceAll("'", "''")}'`
const arr = (items: readonly string[]) => `(array[${items.map(lit).join(', ')}])`

const ROUTES = [
  'orders',
  'orders/:id',
  'checkout',
  'cart',
  'users/:id',
  'products',
  'products/:id',
  'search',
  'login',
  'invoices/:id',
]
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']
/** 50 transaction names: 5 methods over 10 routes. */
export const TRANSACTION_NAMES = METHODS.flatMap((m) => ROUTES.map((r) => `${m} /api/${r}`))
/** Metric names; db.query is half of the metric events. */
export const METRIC_NAMES = ['db.query', 'http.client', 'cache.hit_ratio', 'queue.depth']
const MONITOR_SLUGS = ['nightly-backup', 'hourly-sync', 'email-digest', 'cleanup', 'billing-run']
/** Releases, oldest first; each covers an equal part of the seeded days. */
export const RELEASES = ['1.40.0', '1.41.0', '1.42.0', '1.43.0', '1.44.0', '1.45.0'].map(
  (v) => `api@${v}`,
)
const LOG_TEMPLATES = [
  'request completed',
  'cache miss for key',
  'user signed in',
  'payment authorised',
  'upstream request timeout, retrying',
  'job enqueued',
  'email sent',
  'slow query detected',
  'feature flag evaluated',
  'webhook delivered',
  'session refreshed',
  'inventory reserved',
]
const EXCEPTIONS = ['TypeError', 'RangeError', 'DatabaseError', 'TimeoutError', 'ValidationError']

/** The title of issue `n` (an SQL expression over the integer column `n`). */
function issueTitle(n: string): string {
  return `format('%s: %s (%s)', ${arr(EXCEPTIONS)}[1 + ${n} % 5],
    (array['Cannot read properties of undefined', 'Index out of range', 'connection reset',
      'deadline exceeded', 'invalid input'])[1 + (${n} / 5) % 5], 'site ' || ${n})`
}

/** Issues `md5(tag:issue:n)` for n in [0, issues), counts filled in after the events. */
export function issuesSql(projectId: string, s: SeedShape): string {
  return /* sql */ `
insert into issues (id, project_id, hash, grouping_key, title, level, status, count,
  first_seen_at, last_seen_at)
select md5(${lit(s.tag)} || ':issue:' || n)::uuid, ${lit(projectId)}::uuid,
  encode(sha256(convert_to('message:' || title, 'UTF8')), 'hex'), 'message:' || title, title,
  'error', case when n % 20 = 0 then 'resolved' when n % 50 = 1 then 'ignored' else 'unresolved' end,
  0, now(), now()
from (select n, ${issueTitle('n')} as title
  from generate_series(0, ${s.issues - 1}) n) t`
}

/** Events `part.from` to `part.to` of the project: ~40% log, 20% error, 20% transaction, 15% metric, 5% check_in over the last `days` (7). */
export function eventsSql(
  projectId: string,
  s: SeedShape,
  part: { from: number; to: number } = { from: 1, to: s.events },
): string {
  const tag = lit(s.tag)
  return /* sql */ `
insert into events (id, project_id, event_type, level, message, occurred_at, received_at,
  environment, release, trace_id, request_id, session_id, user_id, transaction_name, duration_ms,
  status_code, value, name_key, is_error, issue_id, payload)
select uuidv7(occurred_at - now()), ${lit(projectId)}::uuid, event_type, level, message,
  occurred_at, occurred_at + interval '120 milliseconds', environment, release, trace_id,
  request_id, session_id, user_id, transaction_name, duration_ms, status_code, value,
  case event_type
    when 'transaction' then md5(coalesce(transaction_name, message, ''))::uuid
    when 'metric' then md5(coalesce(message, ''))::uuid end,
  case when event_type = 'transaction' then
    coalesce(status_code >= 500, false) or coalesce(lower(level) in ('error', 'fatal'), false) end,
  case when event_type = 'error' then md5(${tag} || ':issue:' || issue_n)::uuid end,
  jsonb_strip_nulls(jsonb_build_object('event_type', event_type, 'message', message,
    'level', level, 'occurred_at', occurred_at, 'environment', environment, 'release', release,
    'trace_id', trace_id, 'request_id', request_id, 'session_id', session_id,
    'user_id', user_id, 'transaction_name', transaction_name, 'duration_ms', duration_ms,
    'check_in_slug', case when event_type = 'check_in' then message end,
    'context', jsonb_strip_nulls(jsonb_build_object('environment', environment,
      'release', release, 'trace_id', trace_id, 'request_id', request_id,
      'session_id', session_id, 'user_id', user_id, 'transaction_name', transaction_name,
      'duration_ms', duration_ms, 'value', value,
      'check_in_slug', case when event_type = 'check_in' then message end,
      'check_in_status', case when event_type = 'check_in' then 'ok' end,
      'tags', jsonb_build_object('region', (array['eu-west-1', 'us-east-1'])[1 + h % 2],
        'host', 'api-' || (h % 8)),
      'exception', case when event_type = 'error' then jsonb_build_object(
        'exception_class', split_part(message, ':', 1), 'frames', jsonb_build_array(
          jsonb_build_object('filename', 'src/routes/orders.ts', 'function', 'handler',
            'lineno', 10 + issue_n % 200),
          jsonb_build_object('filename', 'src/app.ts', 'function', 'dispatch', 'lineno', 88)))
        end,
      'request', case when event_type in ('transaction', 'error') then jsonb_build_object(
        'method', split_part(transaction_name, ' ', 1), 'route', split_part(transaction_name, ' ', 2),
        'url', 'https://api.acme.test' || split_part(transaction_name, ' ', 2)) end,
      'response', case when status_code is not null then
        jsonb_build_object('status_code', status_code) end))))
from (
  select *,
    case event_type
      when 'log' then ${arr(LOG_TEMPLATES)}[1 + h % ${LOG_TEMPLATES.length}] || ' #' || (h % 100000)
      when 'error' then ${issueTitle('issue_n')}
      when 'transaction' then transaction_name
      when 'metric' then case when r2 < 0.5 then 'db.query'
        else ${arr(METRIC_NAMES)}[2 + h % ${METRIC_NAMES.length - 1}] end
      else ${arr(MONITOR_SLUGS)}[1 + h % ${MONITOR_SLUGS.length}] end as message,
    case event_type
      when 'log' then case when r2 < 0.7 then 'info' when r2 < 0.9 then 'warning' else 'debug' end
      when 'error' then case when r2 < 0.95 then 'error' else 'fatal' end
      else 'info' end as level,
    case when event_type = 'transaction' then exp(ln(80) + 0.9 * normal) end as duration_ms,
    case when event_type = 'transaction' then
      case when r2 < 0.02 then 500 + h % 4 when r2 < 0.07 then 404 else 200 end end as status_code,
    case when event_type = 'metric' then
      case when r2 < 0.5 then round(exp(ln(4) + 0.8 * normal)::numeric, 3)::float8
        else round((r3 * 100)::numeric, 2)::float8 end end as value
  from (
    select *,
      case when event_type in ('transaction', 'error') or (event_type = 'log' and r2 < 0.5)
        then md5(${tag} || ':trace:' || (h % 400000)) end as trace_id,
      case when event_type in ('transaction', 'error') then 'req-' || ${tag} || '-' || (g / 3)
        end as request_id,
      case when r3 < 0.6 then md5(${tag} || ':session:' || (h % 30000)) end as session_id,
      case when r4 < 0.5 then 'user-' || (h % 8000) end as user_id,
      case when event_type in ('transaction', 'error')
        then ${arr(TRANSACTION_NAMES)}[1 + h % ${TRANSACTION_NAMES.length}] end
        as transaction_name
    from (
      select g, h, r2, r3, r4, occurred_at, normal,
        case when g % 100 < 40 then 'log' when g % 100 < 60 then 'error'
          when g % 100 < 80 then 'transaction' when g % 100 < 95 then 'metric'
          else 'check_in' end as event_type,
        case when r3 < 0.7 then 'production' when r3 < 0.9 then 'staging'
          else 'development' end as environment,
        ${arr(RELEASES)}[1 + least(${RELEASES.length - 1},
          floor((1 - age / ${seconds(s)}) * ${RELEASES.length})::int)] as release,
        floor(${s.issues} * power(r1, 3))::int as issue_n
      from (
        select g, (g::bigint * 7919) % 1000003 as h, random() as r1, random() as r2,
          random() as r3, random() as r4, age, now() - age * interval '1 second' as occurred_at,
          sqrt(-2 * ln(greatest(random(), 1e-12))) * cos(2 * pi() * random()) as normal
        -- Oldest first with a minute of jitter, so the heap follows time as an append-only log does.
        from (select g, greatest(0, ${seconds(s)} * (1 - g::float8 / ${s.events}) + random() * 60) as age
          from generate_series(${part.from}, ${part.to}) g) x
      ) a
    ) b
  ) c
) d`
}

/** Traces of 5–10 spans (`md5(tag:trace:t)`): a server or browser root with nested children. */
export function spansSql(projectId: string, s: SeedShape): string {
  const tag = lit(s.tag)
  const traces = Math.round(s.spans / 7.5)
  const spanId = (k: string) => `substr(md5(${tag} || ':span:' || t || ':' || ${k}), 1, 16)`
  return /* sql */ `
insert into spans (id, project_id, trace_id, span_id, parent_span_id, name, kind, started_at,
  ended_at, duration_ms, environment, release, received_at, payload)
select uuidv7(started_at - now()), ${lit(projectId)}::uuid, trace_id, span_id, parent_span_id,
  name, kind, started_at, started_at + duration_ms * interval '1 millisecond', duration_ms,
  environment, release, started_at + interval '1 second',
  jsonb_strip_nulls(jsonb_build_object('event_type', 'span', 'name', name, 'kind', kind,
    'trace_id', trace_id, 'span_id', span_id, 'parent_span_id', parent_span_id,
    'started_at', started_at, 'duration_ms', duration_ms, 'environment', environment,
    'release', release, 'occurred_at', started_at,
    'context', jsonb_strip_nulls(jsonb_build_object('trace_id', trace_id, 'span_id', span_id,
      'parent_span_id', parent_span_id, 'kind', kind, 'environment', environment,
      'release', release, 'duration_ms', duration_ms))))
from (
  select md5(${tag} || ':trace:' || t) as trace_id, ${spanId('k')} as span_id,
    case when k = 0 then null when k <= 3 then ${spanId('0')} else ${spanId('k - 1')} end
      as parent_span_id,
    case when k = 0 then case when t % 5 = 0 then 'pageload ' || split_part(root_name, ' ', 2)
        else root_name end
      else (array['SELECT orders', 'GET payments.internal', 'cache get', 'render'])[1 + k % 4]
      end as name,
    case when k = 0 then case when t % 5 = 0 then 'browser' else 'server' end
      else (array['db', 'http', 'cache', 'internal'])[1 + k % 4] end as kind,
    t0 + k * interval '3 milliseconds' as started_at,
    case when k = 0 then root_ms else root_ms / (k + 1.5) end as duration_ms,
    environment, release
  from (
    select t, 5 + t % 6 as n, now() - random() * ${seconds(s)} * interval '1 second' as t0,
      exp(ln(120) + 0.8 * sqrt(-2 * ln(greatest(random(), 1e-12))) * cos(2 * pi() * random()))
        as root_ms,
      ${arr(TRANSACTION_NAMES)}[1 + t % ${TRANSACTION_NAMES.length}] as root_name,
      (array['production', 'production', 'staging'])[1 + t % 3] as environment,
      ${arr(RELEASES)}[1 + t % ${RELEASES.length}] as release
    from generate_series(0, ${traces - 1}) t
  ) tr cross join lateral generate_series(0, tr.n - 1) k
) s`
}

/** Issue counts, first/last seen, releases and latest event from the seeded events. */
export function issueTotalsSql(projectId: string): string {
  return /* sql */ `
update issues i set count = a.n, first_seen_at = a.first_seen, last_seen_at = a.last_seen,
  first_release = a.first_release, last_release = a.last_release, latest_event_id = a.latest
from (select issue_id, count(*) as n, min(occurred_at) as first_seen,
    max(occurred_at) as last_seen, min(release) as first_release, max(release) as last_release,
    (array_agg(id order by occurred_at desc))[1] as latest
  from events where project_id = ${lit(projectId)}::uuid and issue_id is not null
  group by issue_id) a
where a.issue_id = i.id`
}

/** A monitor per slug and environment, and a deployment per release and environment. */
export function monitorsAndDeploymentsSql(projectId: string): string[] {
  const p = `${lit(projectId)}::uuid`
  return [
    /* sql */ `
insert into monitors (project_id, slug, environment, status, status_at, last_status,
  last_check_in_at, expected_interval_seconds, last_release, last_duration_ms, check_in_count,
  created_at, updated_at)
select ${p}, slug, env, 'ok', now() - interval '5 minutes', 'ok', now() - interval '5 minutes',
  3600, ${lit(RELEASES.at(-1) ?? '')}, 1200, 168, now() - interval '7 days', now()
from unnest(${arr(MONITOR_SLUGS)}) slug, unnest(array['production', 'staging']) env
on conflict do nothing`,
    /* sql */ `
insert into deployments (project_id, repository, environment, release, commit_sha, branch,
  deployed_at, payload, source, created_at, updated_at)
select ${p}, 'acme/api', env, rel, md5(rel || env) || substr(md5(env), 1, 8), 'main',
  now() - interval '7 days' + (ord - 1) * interval '28 hours',
  jsonb_build_object('repository', 'acme/api', 'environment', env, 'release', rel),
  'api', now(), now()
from unnest(${arr(RELEASES)}) with ordinality r(rel, ord),
  unnest(array['production', 'staging', 'development']) env
on conflict do nothing`,
  ]
}
