/**
 * Rows as an old database may hold them: written straight into the tables, past every
 * check the engine makes today. Max and min finite doubles, `NaN` and `±Infinity`, the largest
 * bigint, BC, far-future and `±infinity` timestamps, 10,000-character names and `javascript:`
 * links. The store contract, the HTTP suites and the read fuzz seed a project with them and
 * check that every read still answers, and aggregates only what is in range.
 */

/** What {@link extremeRowsSql} writes, for the assertions. */
export const EXTREME = {
  /** Transaction name of the timed rows (in the hour before `now`). */
  transaction: 'extreme transaction',
  /** The in-range durations among them; the others must be left out of the timings. */
  durations: [10, 20, 30],
  /** How many transactions of that name (in range or not). */
  transactionCount: 11,
  /** Metric name of the valued rows (in the hour before `now`). */
  metric: 'extreme.metric',
  /** The in-range values among them. */
  values: [-5, 5, 15],
  /** How many metric events of that name. */
  metricCount: 10,
  /** The trace of the extreme spans and events. */
  traceId: 'extreme-trace',
  /** The title of the issue with the largest count. */
  issueTitlePrefix: 'extreme issue',
  /** The slug prefix of the extreme monitors. */
  monitorPrefix: 'extreme-monitor',
  /** A 10,000-character name. */
  longName: 'n'.repeat(10_000),
  /** The largest bigint. */
  maxBigint: '9223372036854775807',
} as const

const MAX_DOUBLE = '1.7976931348623157e308'
const BAD_DURATIONS = [
  MAX_DOUBLE,
  '1e308',
  `-${MAX_DOUBLE}`,
  '-1',
  'Infinity',
  '-Infinity',
  'NaN',
  '31536000001',
]
const BAD_VALUES = [MAX_DOUBLE, `-${MAX_DOUBLE}`, 'Infinity', '-Infinity', 'NaN', '1e21', '-1e300']
/** Instants no read may fail on: before year 1, after 9999, and PostgreSQL's infinities. */
const FAR_TIMES = [
  '4713-01-01 00:00:00+00 BC',
  '0001-01-01 00:00:00+00',
  '9999-12-31 23:59:59.999+00',
  '294276-12-31 23:59:59+00',
  'infinity',
  '-infinity',
]

const q = (s: string) => `'${s.replaceAll("'", "''")}'`
const f8 = (v: string | number) => `${q(String(v))}::float8`
const ts = (v: string) => `${q(v)}::timestamptz`
const id = 'gen_random_uuid()'
// One row of each kind carries the 10,000-character names (more would only slow the fuzz).
const long = (i: number) => (i === 0 ? EXTREME.longName : '')

/**
 * The statements that seed project `projectId` with extreme rows, timed rows in the hour
 * before `now` (so the default windows of the reads hold them), spans and events in trace
 * `traceId`. Run them in order.
 */
export function extremeRowsSql(
  projectId: string,
  now: Date,
  traceId: string = EXTREME.traceId,
): string[] {
  const p = `${q(projectId)}::uuid`
  const recent = ts(new Date(now.getTime() - 30 * 60_000).toISOString())
  const event = (type: string, cols: Record<string, string>, payload: unknown = {}) => {
    const all: Record<string, string> = {
      id,
      project_id: p,
      event_type: q(type),
      occurred_at: recent,
      received_at: recent,
      payload: `${q(JSON.stringify(payload).replace('"__HUGE__"', '1e400'))}::jsonb`,
      ...cols,
    }
    return `insert into events (${Object.keys(all).join(', ')}) values (${Object.values(all).join(', ')})`
  }
  const nameKey = (name: string) => `md5(${q(name)})::uuid`
  const statements: string[] = []

  // Transactions: three in range, eight not, one with the largest status code a column holds.
  for (const d of [...EXTREME.durations.map(String), ...BAD_DURATIONS]) {
    statements.push(
      event(
        'transaction',
        {
          message: q(EXTREME.transaction),
          transaction_name: q(EXTREME.transaction),
          duration_ms: f8(d),
          name_key: nameKey(EXTREME.transaction),
          is_error: d === 'NaN' ? 'true' : 'false',
          status_code: d === 'NaN' ? '2147483647' : 'null',
          environment: q('production'),
          trace_id: q(traceId),
        },
        { event_type: 'transaction', context: { duration_ms: '__HUGE__' } },
      ),
    )
  }
  // A transaction and a metric named with 10,000 characters.
  statements.push(
    event('transaction', {
      message: q(EXTREME.longName),
      transaction_name: q(EXTREME.longName),
      duration_ms: f8(MAX_DOUBLE),
      name_key: nameKey(EXTREME.longName),
      is_error: 'false',
    }),
    event('metric', {
      message: q(EXTREME.longName),
      value: f8(MAX_DOUBLE),
      name_key: nameKey(EXTREME.longName),
    }),
  )
  for (const v of [...EXTREME.values.map(String), ...BAD_VALUES]) {
    statements.push(
      event(
        'metric',
        { message: q(EXTREME.metric), value: f8(v), name_key: nameKey(EXTREME.metric) },
        { event_type: 'metric', context: { value: '__HUGE__' } },
      ),
    )
  }

  // Issues: the largest counts, a 10,000-character title, far and infinite times; events of
  // far times (and one now, for the sparkline) with frames whose line numbers are absurd.
  const frames = { exception: { frames: [{ filename: '/app/x.js', lineno: 1e308, colno: -1 }] } }
  FAR_TIMES.forEach((at, i) => {
    const issue = `extreme_issue_${i}`
    statements.push(
      `insert into issues (id, project_id, hash, grouping_key, title, level, status, count,
         first_seen_at, last_seen_at, regression_count)
       values (${id}, ${p}, ${q(`${issue}-${projectId}`)}, ${q(`message:${issue}`)},
         ${q(`${EXTREME.issueTitlePrefix} ${i} ${long(i)}`)}, 'error', 'unresolved',
         ${EXTREME.maxBigint}, ${ts(FAR_TIMES[0]!)}, ${ts(at)}, ${EXTREME.maxBigint})`,
    )
    const issueId = `(select id from issues where project_id = ${p} and hash = ${q(`${issue}-${projectId}`)})`
    for (const occurred of [at, null]) {
      statements.push(
        event(
          'error',
          {
            message: q(`${EXTREME.issueTitlePrefix} ${i}`),
            issue_id: issueId,
            occurred_at: occurred === null ? recent : ts(occurred),
            environment: q('production'),
            release: q(`r${long(i)}`),
            trace_id: q(traceId),
            session_id: q(`s${long(i)}`),
          },
          { event_type: 'error', repository: 'o/n', context: frames },
        ),
      )
    }
  })

  // Monitors: the largest count and interval, far and infinite last check-ins.
  FAR_TIMES.forEach((at, i) => {
    statements.push(
      `insert into monitors (id, project_id, slug, environment, status, last_status,
         last_check_in_at, expected_interval_seconds, last_release, last_duration_ms,
         check_in_count, created_at, updated_at)
       values (${id}, ${p}, ${q(`${EXTREME.monitorPrefix}-${i}-${long(i)}`)},
         'production', 'ok', ${q(`s${long(i)}`)}, ${ts(at)}, 2147483647,
         ${q(`r${long(i)}`)}, ${f8(MAX_DOUBLE)}, ${EXTREME.maxBigint}, ${recent}, ${recent})`,
    )
  })

  // Deployments: script and data URLs as links, far and infinite times, long strings.
  const links = [
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    'file:///etc/passwd',
    'https://ok.test/pr/1',
  ]
  FAR_TIMES.forEach((at, i) => {
    statements.push(
      `insert into deployments (id, project_id, repository, environment, release, commit_sha,
         deployed_at, pull_request_number, pull_request_url, release_url, compare_url,
         workflow_run_url, deployment_url, release_tag, payload, source, created_at, updated_at)
       values (${id}, ${p}, 'o/n', 'production', ${q(`${i}-${long(i)}`)}, 'abcdef1',
         ${ts(at)}, ${q(i === 0 ? '9'.repeat(10_000) : '42')}, ${links.map(q).join(', ')},
         ${q(`t${long(i)}`)},
         '{}'::jsonb, 'api', ${recent}, ${recent})`,
    )
  })

  // Spans of one trace: absurd durations, far and infinite starts and ends (roots, listed by
  // start), a long name.
  const span = (cols: Record<string, string>) => {
    const all: Record<string, string> = {
      id,
      project_id: p,
      trace_id: q(traceId),
      name: q('extreme span'),
      kind: q('server'),
      started_at: recent,
      received_at: recent,
      payload: `${q(JSON.stringify({ context: { duration_ms: '__HUGE__' } }).replace('"__HUGE__"', '1e400'))}::jsonb`,
      ...cols,
    }
    return `insert into spans (${Object.keys(all).join(', ')}) values (${Object.values(all).join(', ')})`
  }
  statements.push(
    span({ span_id: q('root'), duration_ms: f8(MAX_DOUBLE), name: q(EXTREME.longName) }),
  )
  for (const d of BAD_DURATIONS) {
    statements.push(span({ span_id: q(`d-${d}`), parent_span_id: q('root'), duration_ms: f8(d) }))
  }
  FAR_TIMES.forEach((at, i) => {
    statements.push(
      span({ span_id: q(`s-${i}`), started_at: ts(at) }),
      span({ span_id: q(`e-${i}`), parent_span_id: q(`s-${i}`), ended_at: ts(at) }),
    )
  })
  return statements
}
