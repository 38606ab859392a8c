/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { StoredEvent as EventJson } from '@tis/schema'
import type { Deps } from '../context'
import { relativeTime } from '../format'
import { Badge, type Html, Time } from '../layout'
import { Marked } from './filtered'

/** The rows of an event list (the live activity feed replaces just these). */
export function EventRows(props: {
  deps: Deps
  projectId: string
  events: readonly EventJson[]
}): Html {
  const { deps, projectId, events } = props
  const now = deps.now()
  const project = `${deps.base}/projects/${projectId}`
  return (
    <>
      {events.map((e) => (
        <tr>
          <td>
            <Time iso={e.occurred_at} text={relativeTime(e.occurred_at, now)} />
          </td>
          <td>{e.event_type}</td>
          <td>
            <Badge value={e.level} />
          </td>
          <td>
            {e.issue_id ? (
              <a href={`${project}/issues/${e.issue_id}`}>
                <Marked text={e.message ?? '(no message)'} />
              </a>
            ) : (
              <Marked text={e.message ?? ''} />
            )}
          </td>
          <td>{e.environment ?? ''}</td>
          <td>{e.release ?? ''}</td>
          <td>{e.trace_id && <a href={`${project}/traces/${e.trace_id}`}>trace</a>}</td>
        </tr>
      ))}
    </>
  )
}

/** The header row of an event table. */
export const EventHead = () => (
  <thead>
    <tr>
      <th scope="col">Time</th>
      <th scope="col">Type</th>
      <th scope="col">Level</th>
      <th scope="col">Message</th>
      <th scope="col">Environment</th>
      <th scope="col">Release</th>
      <th scope="col">Trace</th>
    </tr>
  </thead>
)

/** A table of events, newest first; `caption` names it for screen readers. */
export function EventTable(props: {
  deps: Deps
  projectId: string
  events: readonly EventJson[]
  caption: string
}): Html {
  if (props.events.length === 0) return <p class="muted">None.</p>
  return (
    <table>
      <caption class="skip">{props.caption}</caption>
      <EventHead />
      <tbody>
        <EventRows deps={props.deps} projectId={props.projectId} events={props.events} />
      </tbody>
    </table>
  )
}
