/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { StoredCheckIn as CheckInJson, CheckInPage, Monitor as MonitorJson } from '@tis/schema'
import type { DashboardApp, Deps } from '../context'
import { ok } from '../engine-client'
import { formatMs, relativeTime } from '../format'
import { Badge, type Html, queryString, Time } from '../layout'
import { loadProject, renderPage } from '../render'

/** Check-ins per page of the history. */
export const CHECK_INS_PER_PAGE = 50

const num = { class: 'num' } as const

/** The history table: newest first, with a link to the trace of each check-in that has one. */
function CheckInTable(props: { project: string; checkIns: readonly CheckInJson[]; now: Date }) {
  return (
    <table>
      <caption class="skip">Check-ins, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Status</th>
          <th scope="col" {...num}>
            Duration
          </th>
          <th scope="col">Environment</th>
          <th scope="col">Release</th>
          <th scope="col">Trace</th>
          <th scope="col">Message</th>
        </tr>
      </thead>
      <tbody>
        {props.checkIns.map((ci) => (
          <tr>
            <td>
              <Time iso={ci.occurred_at} text={relativeTime(ci.occurred_at, props.now)} />
            </td>
            <td>
              <Badge value={ci.status} />
            </td>
            <td {...num}>{formatMs(ci.duration_ms)}</td>
            <td>{ci.environment}</td>
            <td>{ci.release ?? ''}</td>
            <td>
              {ci.trace_id && (
                <a href={`${props.project}/traces/${encodeURIComponent(ci.trace_id)}`}>
                  {ci.trace_id.length > 16 ? `${ci.trace_id.slice(0, 16)}…` : ci.trace_id}
                </a>
              )}
            </td>
            <td>{ci.message ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** What a monitor's status means, in words next to its badge. */
function statusText(m: MonitorJson): string {
  if (m.status === 'error') return 'the latest run failed'
  if (m.status === 'missed') return 'no check-in arrived in time'
  return m.last_status === 'ok' ? 'healthy' : `last reported ${m.last_status}`
}

function Facts({ m, now }: { m: MonitorJson; now: Date }): Html {
  const when = (iso: string | null) => <Time iso={iso} text={relativeTime(iso, now)} />
  return (
    <dl class="facts">
      <dt>Environment</dt>
      <dd>{m.environment}</dd>
      <dt>Last check-in</dt>
      <dd>
        {when(m.last_check_in_at)} <span class="muted">({m.last_status})</span>
      </dd>
      <dt>Expected every</dt>
      <dd>{m.expected_interval_seconds === null ? '—' : `${m.expected_interval_seconds} s`}</dd>
      <dt>Next expected</dt>
      <dd>{when(m.next_expected_at)}</dd>
      <dt>Missed after</dt>
      <dd>{when(m.missed_after)}</dd>
      <dt>Last release</dt>
      <dd>{m.last_release ?? '—'}</dd>
      <dt>Check-ins</dt>
      <dd>{m.check_in_count}</dd>
    </dl>
  )
}

/** `GET /projects/:id/monitors/:monitor_id`: one monitor's status and its check-in history. */
export function registerMonitor(app: DashboardApp, deps: Deps): void {
  app.get('/projects/:id/monitors/:monitor_id', async (c) => {
    const project = await loadProject(c, deps)
    const session = c.get('session')
    const params = { id: project.id, monitor_id: c.req.param('monitor_id') }
    const { monitor } = ok<{ monitor: MonitorJson }>(
      await session.call(deps.engine.reads.getMonitor, { params }),
    )
    const cursor = c.req.query('cursor') || undefined
    const page = ok<CheckInPage>(
      await session.call(deps.engine.reads.listCheckIns, {
        params,
        query: { cursor, limit: String(CHECK_INS_PER_PAGE) },
      }),
    )
    const now = deps.now()
    const base = `${deps.base}/projects/${project.id}`
    const path = `${base}/monitors/${monitor.id}`
    return renderPage(c, deps, {
      title: `${monitor.slug} · Monitors · ${project.name}`,
      project: { id: project.id, name: project.name, tab: 'monitors' },
      body: (
        <>
          <p>
            <a href={`${base}/monitors`}>All monitors</a>
          </p>
          <h1>{monitor.slug}</h1>
          <p>
            <Badge value={monitor.status} /> {statusText(monitor)}
          </p>
          <Facts m={monitor} now={now} />
          <h2>Check-ins</h2>
          {page.check_ins.length ? (
            <CheckInTable project={base} checkIns={page.check_ins} now={now} />
          ) : (
            <p class="muted">No check-ins on this page.</p>
          )}
          {(cursor || page.next_cursor) && (
            <p class="pager">
              {cursor && <a href={path}>Newest</a>}
              {cursor && page.next_cursor && ' · '}
              {page.next_cursor && (
                <a href={`${path}${queryString({ cursor: page.next_cursor })}`}>Older</a>
              )}
            </p>
          )}
        </>
      ),
    })
  })
}
