// The statements that write a batch into the read model (a projection round, or the deployments
// of an append). Each takes all rows of its kind as ONE jsonb parameter ($1, sent as text)
// unpacked by jsonb_to_recordset: the statement count does not grow with the batch, there is no
// parameter-count limit, and both drivers run it unchanged. Upserts sort their rows by the
// conflict key, and the statements always run in this file's order, so concurrent batches lock
// issue, monitor and deployment rows in one global order (no deadlock). Each statement joins its
// input back on the natural key to report a row index `k` (or `ord`), so results never depend on
// how a driver spells a uuid.

/** Upserts issues; resolves `(k, id)`. */
export const UPSERT_ISSUES = /* sql */ `
with input as (
  select * from jsonb_to_recordset($1::text::jsonb) as r(
    k int, project_id uuid, hash text, grouping_key text, title text, level text, count bigint,
    first_seen_at timestamptz, last_seen_at timestamptz, first_release text, last_release text,
    latest_event_id uuid)
), up as (
  insert into issues as i (project_id, hash, grouping_key, title, level, count, first_seen_at,
    last_seen_at, first_release, last_release, latest_event_id)
  select project_id, hash, grouping_key, title, level, count, first_seen_at, last_seen_at,
    first_release, last_release, latest_event_id
    from input order by project_id, hash
  on conflict (project_id, hash) do update set
    count = i.count + excluded.count,
    first_seen_at = least(i.first_seen_at, excluded.first_seen_at),
    last_seen_at = greatest(i.last_seen_at, excluded.last_seen_at),
    first_release = case when excluded.first_seen_at < i.first_seen_at
      then coalesce(excluded.first_release, i.first_release)
      else coalesce(i.first_release, excluded.first_release) end,
    last_release = case when excluded.last_seen_at >= i.last_seen_at
      then coalesce(excluded.last_release, i.last_release)
      else coalesce(i.last_release, excluded.last_release) end,
    level = case when excluded.last_seen_at >= i.last_seen_at then excluded.level else i.level end,
    latest_event_id = case when excluded.last_seen_at >= i.last_seen_at
      then excluded.latest_event_id else i.latest_event_id end,
    -- A new occurrence of a resolved issue reopens it as a regression, remembering the release
    -- of the newest event of the batch; an ignored issue stays ignored and keeps counting.
    status = case when i.status = 'resolved' then 'unresolved' else i.status end,
    regression_count = i.regression_count + case when i.status = 'resolved' then 1 else 0 end,
    regressed_in_release = case when i.status = 'resolved'
      then excluded.last_release else i.regressed_in_release end,
    regressed_at = case when i.status = 'resolved'
      then excluded.last_seen_at else i.regressed_at end
  returning id, project_id, hash
)
select input.k, up.id::text as id
  from input join up on up.project_id = input.project_id and up.hash = input.hash`

/**
 * Counts an issue's new affected users (docs/issues.md#affected-users): each (issue, user) of
 * the round not seen before is inserted into `issue_users`, and adds one to `issues.users`. One
 * input row per issue with its distinct users (the issue's key is sent and joined once).
 * Runs after {@link UPSERT_ISSUES}: every issue has its row, found by natural key, and the
 * round's transaction already holds its lock, so this takes no new one; in steady state every
 * user is known, nothing is inserted and no issue is updated again.
 */
export const COUNT_ISSUE_USERS = /* sql */ `
with input as (
  select * from jsonb_to_recordset($1::text::jsonb) as r(project_id uuid, hash text, users text[])
), added as (
  insert into issue_users (issue_id, user_hash)
  select i.id, md5(u.user_id)::uuid
    from input join issues i on i.project_id = input.project_id and i.hash = input.hash
    cross join unnest(input.users) as u(user_id)
    order by 1, 2
  on conflict do nothing
  returning issue_id
), counts as (
  select issue_id, count(*) as users from added group by issue_id
)
update issues i set users = i.users + counts.users
  from counts where i.id = counts.issue_id`

/**
 * Reopens the round's ignored issues whose condition is met (docs/issues.md#ignore-until), after
 * the round's issues, users and events are written: `count` more events than when ignored (or
 * `count` within the `window_seconds` before the round's latest arrival of the issue, from
 * `events_issue_idx`), `users` more users, or an event received once `until` has passed. Times
 * are the engine's (events' `received_at`), not the database's clock. A met condition counts as a regression (so `regression` rules
 * fire, docs/alerts.md), clears, and leaves an `ignore_met` history entry naming it. In the
 * round's transaction: met once, however many events of a burst meet it.
 */
export const REOPEN_IGNORED = /* sql */ `
with input as (
  select * from jsonb_to_recordset($1::text::jsonb) as r(project_id uuid, hash text, at timestamptz)
), met as (
  select i.id, i.ignore_until as condition, input.at
    from input join issues i on i.project_id = input.project_id and i.hash = input.hash
    where i.status = 'ignored' and i.ignore_until is not null and (
      (i.ignore_until ? 'users'
        and i.users - (i.ignore_until->>'users_base')::bigint >= (i.ignore_until->>'users')::bigint)
      or (i.ignore_until ? 'until' and input.at >= (i.ignore_until->>'until')::timestamptz)
      or (i.ignore_until ? 'count' and not i.ignore_until ? 'window_seconds'
        and i.count - (i.ignore_until->>'count_base')::bigint >= (i.ignore_until->>'count')::bigint)
      or (i.ignore_until ? 'window_seconds' and (
        select count(*) from events e where e.issue_id = i.id
          and e.occurred_at >= input.at - make_interval(secs => (i.ignore_until->>'window_seconds')::int)
      ) >= (i.ignore_until->>'count')::bigint)
    )
), reopened as (
  update issues i set status = 'unresolved', ignore_until = null,
    regression_count = i.regression_count + 1, regressed_in_release = i.last_release,
    regressed_at = i.last_seen_at
    from met where i.id = met.id
  returning i.id, i.project_id, met.condition, met.at
)
insert into issue_history (project_id, issue_id, kind, actor, data, created_at)
select project_id, id, 'ignore_met', null,
  jsonb_build_object('condition', condition - 'count_base' - 'users_base'), at
  from reopened`

const EVENT_COLUMNS = `id, project_id, event_type, level, message, fingerprint, occurred_at,
  received_at, environment, release, trace_id, request_id, session_id, user_id, transaction_name,
  duration_ms, status_code, value, name_key, is_error, issue_id, payload`

/** The row's `legacy_id`: the seq of the ingest log entry it was projected from. */
const LEGACY_ID = 'input.legacy_id'

/** `name_key`: what transactions and metrics are grouped by (see migration 0008). */
const NAME_KEY = `case input.event_type
    when 'transaction' then md5(coalesce(input.transaction_name, input.message, ''))::uuid
    when 'metric' then md5(coalesce(input.message, ''))::uuid end`

/** `is_error` of a transaction: status code ≥ 500 or level error/fatal. */
const IS_ERROR = `case when input.event_type = 'transaction' then
    coalesce(input.status_code >= 500, false)
    or coalesce(lower(input.level) in ('error', 'fatal'), false) end`

/** The last columns of an events or spans input: a projected input swaps them ({@link fromLog}). */
const PAYLOAD_TAIL = 'payload jsonb, legacy_id bigint)'

const EVENT_INPUT = /* sql */ `jsonb_to_recordset($1::text::jsonb) as r(
    ord int, id uuid, project_id uuid, event_type text, level text, message text,
    fingerprint text, occurred_at timestamptz, received_at timestamptz, environment text,
    release text, trace_id text, request_id text, session_id text, user_id text,
    transaction_name text, duration_ms float8, status_code int, value float8, issue_hash text,
    ${PAYLOAD_TAIL}`

/** The `events` row of each `input` row; its issue is looked up by hash. */
const EVENT_VALUES = `${EVENT_COLUMNS.replace('name_key', NAME_KEY)
  .replace('is_error', IS_ERROR)
  .replace(
    'issue_id',
    '(select i.id from issues i where i.project_id = input.project_id and i.hash = input.issue_hash)',
  )}, ${LEGACY_ID}`

/**
 * The rows of a projected statement's parameter, each joined to its ingest log entry for the
 * payload: `$1` carries no payload, so a round's payloads are neither serialised in Node nor
 * parsed again by PostgreSQL; they are copied out of the log's jsonb (the op's `event`, exactly
 * what the row would have carried). Rows name their entry by (`log_xid`, `legacy_id` = seq). A
 * row whose op the projection's enricher rewrote carries its payload as `enriched` instead: the
 * log holds the event as accepted, before its frames were resolved.
 */
const fromLog = (input: string) =>
  input
    .replace(PAYLOAD_TAIL, 'enriched jsonb, legacy_id bigint, log_xid xid8)')
    .replace(/^/, "(select r.*, coalesce(r.enriched, l.record -> 'op' -> 'event') as payload from ")
    .concat(' join ingest_log l on l.xid = r.log_xid and l.seq = r.legacy_id)')

/** Inserts projected events (payloads from the log, see {@link fromLog}); reports nothing. */
export const INSERT_PROJECTED_EVENTS = /* sql */ `
insert into events (${EVENT_COLUMNS}, legacy_id)
select ${EVENT_VALUES} from ${fromLog(EVENT_INPUT)} input order by ord`

const SPAN_COLUMNS = `id, project_id, trace_id, span_id, parent_span_id, name, kind, started_at,
  ended_at, duration_ms, environment, release, received_at, payload`

const SPAN_INPUT = /* sql */ `jsonb_to_recordset($1::text::jsonb) as r(
    ord int, id uuid, project_id uuid, trace_id text, span_id text, parent_span_id text,
    name text, kind text, started_at timestamptz, ended_at timestamptz, duration_ms float8,
    environment text, release text, received_at timestamptz, ${PAYLOAD_TAIL}`

/** Inserts projected spans (payloads from the log, see {@link fromLog}); reports nothing. */
export const INSERT_PROJECTED_SPANS = /* sql */ `
insert into spans (${SPAN_COLUMNS}, legacy_id)
select ${SPAN_COLUMNS}, ${LEGACY_ID} from ${fromLog(SPAN_INPUT)} input order by ord`

// A monitor's last_* values follow its newest check-in; its health follows the newest check-in
// that had one ('ok' or 'error'), so late or other-status check-ins leave it alone.
const NEWER = 'excluded.last_check_in_at >= m.last_check_in_at'
const HEALTH_NEWER =
  'excluded.status is not null and (m.status_at is null or excluded.status_at >= m.status_at)'

/** Upserts monitors; resolves `(k, id)`. */
export const UPSERT_MONITORS = /* sql */ `
with input as (
  select * from jsonb_to_recordset($1::text::jsonb) as r(
    k int, project_id uuid, slug text, environment text, status text, status_at timestamptz,
    last_status text, last_check_in_at timestamptz, expected_interval_seconds int,
    last_release text, last_duration_ms float8, check_in_count bigint, created_at timestamptz)
), up as (
  insert into monitors as m (project_id, slug, environment, status, status_at, last_status,
    last_check_in_at, expected_interval_seconds, last_release, last_duration_ms, check_in_count,
    created_at, updated_at)
  select project_id, slug, environment, status, status_at, last_status, last_check_in_at,
    expected_interval_seconds, last_release, last_duration_ms, check_in_count, created_at,
    created_at
    from input order by project_id, md5(slug), md5(environment)
  on conflict (project_id, md5(slug), md5(environment)) do update set
    status = case when ${HEALTH_NEWER} then excluded.status else m.status end,
    status_at = case when ${HEALTH_NEWER} then excluded.status_at else m.status_at end,
    last_status = case when ${NEWER} then excluded.last_status else m.last_status end,
    expected_interval_seconds = case when ${NEWER}
      then excluded.expected_interval_seconds else m.expected_interval_seconds end,
    last_release = case when ${NEWER}
      then coalesce(excluded.last_release, m.last_release)
      else coalesce(m.last_release, excluded.last_release) end,
    last_duration_ms = case when ${NEWER} then excluded.last_duration_ms else m.last_duration_ms end,
    last_check_in_at = greatest(m.last_check_in_at, excluded.last_check_in_at),
    check_in_count = m.check_in_count + excluded.check_in_count,
    updated_at = excluded.updated_at
  returning id, project_id, slug, environment
)
select input.k, up.id::text as id
  from input join up on up.project_id = input.project_id and up.slug = input.slug
   and up.environment = input.environment`

/**
 * Inserts check-in history rows. Their monitors were upserted earlier in the same transaction
 * and are looked up by natural key here.
 */
export const INSERT_CHECK_INS = /* sql */ `
insert into check_ins (id, monitor_id, project_id, slug, status, environment, release,
  occurred_at, received_at, duration_ms, trace_id, request_id, payload, source, event_id)
select coalesce(id, gen_random_uuid()),
  (select m.id from monitors m where m.project_id = r.project_id
     and md5(m.slug) = md5(r.slug) and md5(m.environment) = md5(r.environment)
     and m.slug = r.slug and m.environment = r.environment),
  project_id, slug, status, environment,
  release, occurred_at, received_at, duration_ms, trace_id, request_id, payload, source, event_id
  from jsonb_to_recordset($1::text::jsonb) as r(
    id uuid, monitor_id uuid, project_id uuid, slug text, status text, environment text,
    release text, occurred_at timestamptz, received_at timestamptz, duration_ms float8,
    trace_id text, request_id text, payload jsonb, source text, event_id uuid)`

const DEPLOYMENT_FIELDS = `commit_sha, branch, deployed_at, pull_request_number,
  pull_request_url, release_url, compare_url, workflow_run_url, deployment_url, release_tag,
  github, payload`
const DEPLOYMENT_KEY = 'project_id, md5(repository), md5(environment), md5(release)'

/**
 * Upserts deployments: `api` rows overwrite (keeping the row's id and legacy id), `event` rows
 * only insert unknown keys (the DO UPDATE's WHERE skips them). Resolves `(k, id, legacy_id)` for
 * every row inserted or overwritten.
 */
export const UPSERT_DEPLOYMENTS = /* sql */ `
with input as (
  select * from jsonb_to_recordset($1::text::jsonb) as r(
    k int, id uuid, project_id uuid, source text, repository text, environment text,
    release text, commit_sha text, branch text, deployed_at timestamptz, pull_request_number text,
    pull_request_url text, release_url text, compare_url text, workflow_run_url text,
    deployment_url text, release_tag text, github jsonb, payload jsonb, received_at timestamptz)
), up as (
  insert into deployments as d (id, project_id, repository, environment, release,
    ${DEPLOYMENT_FIELDS}, source, created_at, updated_at)
  select coalesce(id, gen_random_uuid()), project_id, repository, environment, release,
    ${DEPLOYMENT_FIELDS}, source, received_at, received_at
    from input order by ${DEPLOYMENT_KEY}
  on conflict (${DEPLOYMENT_KEY}) do update set
    ${DEPLOYMENT_FIELDS.split(',')
      .map((c) => `${c.trim()} = excluded.${c.trim()}`)
      .join(', ')},
    source = excluded.source, updated_at = excluded.updated_at
  where excluded.source = 'api'
  returning id, legacy_id, project_id, repository, environment, release
)
select input.k, up.id::text as id, up.legacy_id
  from input join up on up.project_id = input.project_id and up.repository = input.repository
   and up.environment = input.environment and up.release = input.release`

/** Looks up existing deployments by natural key (ops whose upsert changed nothing). */
export const FIND_DEPLOYMENTS = /* sql */ `
select r.k, d.id::text as id, d.legacy_id
  from jsonb_to_recordset($1::text::jsonb) as r(
    k int, project_id uuid, repository text, environment text, release text)
  join deployments d on d.project_id = r.project_id
   and md5(d.repository) = md5(r.repository) and md5(d.environment) = md5(r.environment)
   and md5(d.release) = md5(r.release)
   and d.repository = r.repository and d.environment = r.environment and d.release = r.release`
