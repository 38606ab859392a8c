/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type {
  EventPage,
  Monitor as MonitorJson,
  MonitorPage,
  Project as ProjectJson,
} from '@tis/schema'
import { INTEGRATION_KINDS } from '@tis/schema'
import type { DashboardApp, Deps, Session } from '../context'
import { errorMessages, ok } from '../engine-client'
import { formatCapped, hoursAgo } from '../format'
import { Badge, CsrfField, type Html } from '../layout'
import { renderPage } from '../render'

// Counting by listing: one keyset page each, shown as `100+` beyond it.
const CAP = '100'

interface ProjectRow {
  project: ProjectJson
  errors: { count: number; capped: boolean }
  events: { count: number; capped: boolean }
  monitors: Record<MonitorJson['status'], number>
}

/** 24-hour counts from one keyset page each (capped at 100, shown as `100+`). */
async function summarize(session: Session, deps: Deps, project: ProjectJson): Promise<ProjectRow> {
  const since = hoursAgo(deps.now(), 24)
  const params = { id: project.id }
  const reads = deps.engine.reads
  const [errors, events, monitors] = await Promise.all([
    session.call(reads.listEvents, { params, query: { since, event_type: 'error', limit: CAP } }),
    session.call(reads.listEvents, { params, query: { since, limit: CAP } }),
    session.call(reads.listMonitors, { params, query: { limit: CAP } }),
  ])
  const count = (r: typeof errors) => {
    const page = ok<EventPage>(r)
    return { count: page.events.length, capped: page.next_cursor !== null }
  }
  const health = { ok: 0, error: 0, missed: 0 }
  for (const m of ok<MonitorPage>(monitors).monitors) health[m.status] += 1
  return { project, errors: count(errors), events: count(events), monitors: health }
}

function MonitorCell({ m }: { m: ProjectRow['monitors'] }): Html {
  if (m.ok + m.error + m.missed === 0) return <span class="muted">none</span>
  return (
    <>
      {`${m.ok} ok`}
      {m.error > 0 && (
        <>
          , <span class="badge s-error">{`${m.error} failing`}</span>
        </>
      )}
      {m.missed > 0 && (
        <>
          , <span class="badge s-missed">{`${m.missed} missed`}</span>
        </>
      )}
    </>
  )
}

/** The new-project form; after a refusal it shows what was typed (`typed`). */
function CreateForm({
  deps,
  session,
  typed,
}: {
  deps: Deps
  session: Session
  typed?: { name: string; kind: string }
}) {
  return (
    <>
      <h2>New project</h2>
      <form class="filters" method="post" action={`${deps.base}/projects`}>
        <CsrfField csrf={session.csrf} />
        <label for="project-name">
          Name
          <input id="project-name" name="name" required maxlength={200} value={typed?.name} />
        </label>
        <label for="project-kind">
          Platform
          <select id="project-kind" name="integration_kind">
            {INTEGRATION_KINDS.map((k) => (
              <option selected={k === typed?.kind}>{k}</option>
            ))}
          </select>
        </label>
        <button type="submit">Create project</button>
      </form>
    </>
  )
}

/** `GET /projects` (with 24-hour counts and monitor health) and `POST /projects`. */
export function registerProjects(app: DashboardApp, deps: Deps): void {
  app.get('/projects', async (c) => {
    const session = c.get('session')
    const { projects } = ok<{ projects: ProjectJson[] }>(
      await session.call(deps.engine.management.listProjects),
    )
    const rows = await Promise.all(projects.map((p) => summarize(session, deps, p)))
    return renderPage(c, deps, {
      title: 'Projects',
      body: (
        <>
          <h1>Projects</h1>
          {rows.length ? (
            <table>
              <caption class="skip">Projects</caption>
              <thead>
                <tr>
                  <th scope="col">Project</th>
                  <th scope="col">Platform</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Errors (24 h)
                  </th>
                  <th scope="col" class="num">
                    Events (24 h)
                  </th>
                  <th scope="col">Monitors</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr>
                    <td>
                      <a href={`${deps.base}/projects/${r.project.id}/issues`}>{r.project.name}</a>
                    </td>
                    <td>{r.project.integration_kind}</td>
                    <td>
                      <Badge value={r.project.status === 'active' ? 'ok' : r.project.status} />
                    </td>
                    <td class="num">{formatCapped(r.errors.count, r.errors.capped)}</td>
                    <td class="num">{formatCapped(r.events.count, r.events.capped)}</td>
                    <td>
                      <MonitorCell m={r.monitors} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="empty">
              You have no projects yet. Create one below, then create an API key in its settings.
            </p>
          )}
          <CreateForm deps={deps} session={session} />
        </>
      ),
    })
  })
  app.post('/projects', async (c) => {
    const session = c.get('session')
    const form = await c.req.parseBody()
    const typed = { name: String(form['name'] ?? ''), kind: String(form['integration_kind'] ?? '') }
    const response = await session.call(deps.engine.management.createProject, {
      body: { project: { name: typed.name, integration_kind: typed.kind } },
    })
    if (response.status === 201) {
      const { project } = response.body as { project: ProjectJson }
      return c.redirect(`${deps.base}/projects/${project.id}/settings`, 303)
    }
    return renderPage(c, deps, {
      title: 'New project',
      status: response.status,
      body: (
        <>
          <h1>New project</h1>
          <p class="alert" role="alert">
            {errorMessages(response).join('; ')}
          </p>
          <CreateForm deps={deps} session={session} typed={typed} />
        </>
      ),
    })
  })
}
