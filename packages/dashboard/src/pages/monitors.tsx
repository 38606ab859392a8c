/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { DeploymentPage, MonitorPage } from '@tis/schema'
import type { DashboardApp, Deps } from '../context'
import { ok } from '../engine-client'
import { relativeTime } from '../format'
import { Badge, Time } from '../layout'
import { loadProject, renderPage } from '../render'
import { DeploymentLinks } from './deployment-links'

/** `GET /projects/:id/monitors` and `GET /projects/:id/deployments`. */
export function registerMonitorsAndDeployments(app: DashboardApp, deps: Deps): void {
  app.get('/projects/:id/monitors', async (c) => {
    const project = await loadProject(c, deps)
    const { monitors } = ok<MonitorPage>(
      await c.get('session').call(deps.engine.reads.listMonitors, {
        params: { id: project.id },
        query: { limit: '200' },
      }),
    )
    const now = deps.now()
    const when = (iso: string | null) => <Time iso={iso} text={relativeTime(iso, now)} />
    return renderPage(c, deps, {
      title: `Monitors · ${project.name}`,
      project: { id: project.id, name: project.name, tab: 'monitors' },
      body: (
        <>
          <h1>Monitors</h1>
          {monitors.length ? (
            <table>
              <caption class="skip">Monitors</caption>
              <thead>
                <tr>
                  <th scope="col">Monitor</th>
                  <th scope="col">Environment</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last check-in</th>
                  <th scope="col">Next expected</th>
                  <th scope="col">Missed after</th>
                  <th scope="col" class="num">
                    Check-ins
                  </th>
                </tr>
              </thead>
              <tbody>
                {monitors.map((m) => (
                  <tr>
                    <td>
                      <a href={`${deps.base}/projects/${project.id}/monitors/${m.id}`}>{m.slug}</a>
                    </td>
                    <td>{m.environment}</td>
                    <td>
                      <Badge value={m.status} />
                    </td>
                    <td>
                      {when(m.last_check_in_at)} <span class="muted">({m.last_status})</span>
                    </td>
                    <td>{when(m.next_expected_at)}</td>
                    <td>{when(m.missed_after)}</td>
                    <td class="num">{m.check_in_count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="empty">
              No check-ins yet. A job reports with <code>POST /api/v1/check_ins</code> and{' '}
              <code>
                {
                  '{"check_in":{"slug":"nightly-backup","status":"ok","expected_interval_seconds":86400}}'
                }
              </code>
              .
            </p>
          )}
        </>
      ),
    })
  })
  app.get('/projects/:id/deployments', async (c) => {
    const project = await loadProject(c, deps)
    const { deployments } = ok<DeploymentPage>(
      await c.get('session').call(deps.engine.reads.listDeployments, {
        params: { id: project.id },
        query: { limit: '50' },
      }),
    )
    return renderPage(c, deps, {
      title: `Deployments · ${project.name}`,
      project: { id: project.id, name: project.name, tab: 'deployments' },
      body: (
        <>
          <h1>Deployments</h1>
          {deployments.length ? (
            deployments.map((d) => (
              <section aria-label={`Deployment ${d.release} to ${d.environment}`}>
                <h2>{`${d.release} → ${d.environment}`}</h2>
                <DeploymentLinks
                  deployment={d}
                  project={{ base: deps.base, projectId: project.id }}
                />
              </section>
            ))
          ) : (
            <p class="empty">
              No deployments yet. Record one from CI with <code>POST /api/v1/deployments</code>.
            </p>
          )}
        </>
      ),
    })
  })
}
