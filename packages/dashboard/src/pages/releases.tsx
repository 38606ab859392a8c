/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { DeploymentPage } from '@tis/schema'
import type { DashboardApp, DashboardContext, Deps } from '../context'
import { ok } from '../engine-client'
import { formatPercent, relativeTime } from '../format'
import { queryString, Time } from '../layout'
import { loadProject, renderPage } from '../render'
import { releaseHref } from './release-link'
import { Rate, ReleaseFiltersForm, type ReleasePageJson, releaseFilters } from './release-parts'

const num = { class: 'num' } as const

/**
 * The environments the filter offers: those of the project's latest deployments (the engine
 * lists no environments of sessions), and the one asked for.
 */
export async function environmentsSeen(
  c: DashboardContext,
  deps: Deps,
  projectId: string,
): Promise<string[]> {
  const { deployments } = ok<DeploymentPage>(
    await c.get('session').call(deps.engine.reads.listDeployments, {
      params: { id: projectId },
      query: { limit: '100' },
    }),
  )
  return [...new Set(deployments.map((d) => d.environment))]
}

/** `GET /projects/:id/releases`: releases seen in the window, last seen first. */
export function registerReleases(app: DashboardApp, deps: Deps): void {
  app.get('/projects/:id/releases', async (c) => {
    const project = await loadProject(c, deps)
    const filters = releaseFilters(c, deps.now())
    const cursor = c.req.query('cursor') || undefined
    const [page, environments] = await Promise.all([
      c.get('session').call(deps.engine.reads.listReleases, {
        params: { id: project.id },
        query: { ...filters.engine, cursor },
      }),
      environmentsSeen(c, deps, project.id),
    ])
    const { releases, next_cursor } = ok<ReleasePageJson>(page)
    const now = deps.now()
    const path = `${deps.base}/projects/${project.id}/releases`
    const link = { base: deps.base, projectId: project.id }
    return renderPage(c, deps, {
      title: `Releases · ${project.name}`,
      project: { id: project.id, name: project.name, tab: 'releases' },
      body: (
        <>
          <h1>Releases</h1>
          <ReleaseFiltersForm
            action={path}
            environments={environments}
            environment={filters.shown.environment}
            window={filters.window}
          />
          {releases.length ? (
            <table>
              <caption class="skip">Releases, last seen first</caption>
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">Environment</th>
                  <th scope="col" {...num}>
                    Crash-free sessions
                  </th>
                  <th scope="col" {...num}>
                    Crash-free users
                  </th>
                  <th scope="col" {...num}>
                    Adoption (24 h)
                  </th>
                  <th scope="col" {...num}>
                    Sessions
                  </th>
                  <th scope="col" {...num}>
                    Users
                  </th>
                  <th scope="col">Last seen</th>
                </tr>
              </thead>
              <tbody>
                {releases.map((r) => (
                  <tr>
                    <td>
                      <a href={releaseHref(link, r.version, filters.shown)}>{r.version}</a>
                    </td>
                    <td>{r.environment ?? <span class="muted">All</span>}</td>
                    <td {...num}>
                      <Rate value={r.crash_free_sessions} />
                    </td>
                    <td {...num}>
                      <Rate value={r.crash_free_users} />
                    </td>
                    <td {...num}>{formatPercent(r.adoption)}</td>
                    <td {...num}>{r.sessions.total}</td>
                    <td {...num}>{r.users.total}</td>
                    <td>
                      <Time iso={r.last_seen_at} text={relativeTime(r.last_seen_at, now)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="empty">
              No releases in this window. A release shows up here once sessions or events name it:
              an SDK's session tracking, <code>POST /api/v1/sessions</code>, or a{' '}
              <code>release</code> on events and deployments.
            </p>
          )}
          {next_cursor && (
            <p class="pager">
              <a href={`${path}${queryString({ ...filters.shown, cursor: next_cursor })}`}>
                Next page
              </a>
            </p>
          )}
        </>
      ),
    })
  })
}
