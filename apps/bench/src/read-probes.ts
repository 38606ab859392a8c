import type { Sql } from 'postgres'
import type { Probe } from './read-load'

/** Ids and cursors the probes need, taken from the seeded data. */
export interface Fixtures {
  readonly issueId: string
  readonly issueCursor: string
  readonly eventId: string
  readonly eventTraceId: string
  readonly eventCursor: string
  /** A seeded trace of 10 spans. */
  readonly traceId: string
}

async function getJson<T>(url: string, headers: Record<string, string>): Promise<T> {
  const res = await fetch(url, { headers })
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

/** Picks the newest unresolved issue, the newest error event and the page-2 cursors. */
export async function resolveFixtures(
  sql: Sql,
  url: string,
  projectId: string,
  headers: Record<string, string>,
): Promise<Fixtures> {
  const base = `${url}/api/v1/projects/${projectId}`
  const issues = await getJson<{ issues: Array<{ id: string }>; next_cursor: string }>(
    `${base}/issues`,
    headers,
  )
  const events = await getJson<{ next_cursor: string }>(`${base}/events`, headers)
  const [event] = await sql<Array<{ id: string; trace_id: string }>>`
    select id::text, trace_id from events
    where project_id = ${projectId} and event_type = 'error' and trace_id is not null
    order by occurred_at desc limit 1`
  const [trace] = await sql<Array<{ trace_id: string }>>`select md5('main:trace:5') as trace_id`
  if (!issues.issues[0] || !event || !trace) throw new Error('seeded data is missing')
  return {
    issueId: issues.issues[0].id,
    issueCursor: issues.next_cursor,
    eventId: event.id,
    eventTraceId: event.trace_id,
    eventCursor: events.next_cursor,
    traceId: trace.trace_id,
  }
}

/** Every read endpoint, with the filters a user of the inbox and event list reaches for. */
export function probes(projectId: string, f: Fixtures): Probe[] {
  const p = `/api/v1/projects/${projectId}`
  const q = encodeURIComponent
  return [
    { name: 'GET issues', path: `${p}/issues` },
    { name: 'GET issues?q=TimeoutError', path: `${p}/issues?q=TimeoutError` },
    { name: 'GET issues?environment=staging', path: `${p}/issues?environment=staging` },
    { name: 'GET issues, page 2 (cursor)', path: `${p}/issues?cursor=${q(f.issueCursor)}` },
    { name: 'GET issues/:id', path: `${p}/issues/${f.issueId}` },
    {
      name: 'PATCH issues/:id (status unchanged)',
      path: `${p}/issues/${f.issueId}`,
      method: 'PATCH',
      body: JSON.stringify({ issue: { status: 'unresolved' } }),
    },
    { name: 'GET events', path: `${p}/events` },
    { name: 'GET events?event_type=log', path: `${p}/events?event_type=log` },
    { name: 'GET events?trace_id=…', path: `${p}/events?trace_id=${q(f.eventTraceId)}` },
    { name: 'GET events?q=timeout (common)', path: `${p}/events?q=timeout` },
    { name: 'GET events?q=… (no match)', path: `${p}/events?q=${q('no such text')}` },
    { name: 'GET events, page 2 (cursor)', path: `${p}/events?cursor=${q(f.eventCursor)}` },
    { name: 'GET events/:event_id (detail)', path: `${p}/events/${f.eventId}` },
    { name: 'GET transactions (24 h)', path: `${p}/transactions` },
    { name: 'GET metrics?name=db.query (24 h)', path: `${p}/metrics?name=db.query` },
    { name: 'GET traces', path: `${p}/traces` },
    { name: 'GET traces/:trace_id (10 spans)', path: `${p}/traces/${f.traceId}` },
    { name: 'GET monitors', path: `${p}/monitors` },
    { name: 'GET deployments', path: `${p}/deployments` },
  ]
}
