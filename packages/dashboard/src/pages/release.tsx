/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { DashboardApp, Deps } from '../context'
import { ok } from '../engine-client'
import { formatPercent, relativeTime } from '../format'
import { Badge, type Html, Time } from '../layout'
import { loadProject, renderPage } from '../render'
import { SessionChart } from '../session-chart'
import { DeploymentLinks } from './deployment-links'
import { Marked } from './filtered'
import { releaseHref } from './release-link'
import { Rate, type ReleaseDetailJson, ReleaseFiltersForm, releaseFilters } from './release-parts'
import { environmentsSeen } from './releases'

/** The release's sessions by how they ended, and its users. */
function Counts({ release: r }: { release: ReleaseDetailJson }): Html {
  const rows = [
    ['Healthy', r.sessions.healthy],
    ['Errored', r.sessions.errored],
    ['Crashed', r.sessions.crashed],
    ['Abnormal', r.sessions.abnormal],
    ['Total', r.sessions.total],
  ] as const
  return (
    <table class="counts">
      <caption class="skip">Sessions by how they ended</caption>
      <tbody>
        {rows.map(([label, n]) => (
          <tr>
            <th scope="row">{label}</th>
            <td class="num">{n}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** `GET /projects/:id/releases/:version`: one release's health, new issues and deployments. */
export function registerRelease(app: DashboardApp, deps: Deps): void {
  app.get('/projects/:id/releases/:version', async (c) => {
    const project = await loadProject(c, deps)
    const version = c.req.param('version')
    const filters = releaseFilters(c, deps.now())
    const [answer, environments] = await Promise.all([
      c.get('session').call(deps.engine.reads.getRelease, {
        params: { id: project.id, version },
        query: filters.engine,
      }),
      environmentsSeen(c, deps, project.id),
    ])
    const form = (
      <ReleaseFiltersForm
        action={releaseHref({ base: deps.base, projectId: project.id }, version)}
        environments={environments}
        environment={filters.shown.environment}
        window={filters.window}
      />
    )
    if (answer.status === 404 && (filters.shown.environment || filters.shown.since)) {
      // Seen elsewhere or at other times, maybe: keep the form to widen the filters.
      return renderPage(c, deps, {
        title: `Release ${version} · ${project.name}`,
        project: { id: project.id, name: project.name, tab: 'releases' },
        status: 404,
        body: (
          <>
            <h1>
              Release <code>{version}</code>
            </h1>
            {form}
            <p class="empty">
              {`Nothing of this release in ${filters.shown.environment ?? 'any environment'} in this window.`}
            </p>
          </>
        ),
      })
    }
    const { release: r } = ok<{ release: ReleaseDetailJson }>(answer)
    const now = deps.now()
    const base = `${deps.base}/projects/${project.id}`
    return renderPage(c, deps, {
      title: `Release ${r.version} · ${project.name}`,
      project: { id: project.id, name: project.name, tab: 'releases' },
      body: (
        <>
          <h1>
            Release <code>{r.version}</code>
          </h1>
          {form}
          <dl class="facts">
            <dt>Environment</dt>
            <dd>{r.environment ?? 'All environments'}</dd>
            <dt>Crash-free sessions</dt>
            <dd>
              <Rate value={r.crash_free_sessions} />
            </dd>
            <dt>Crash-free users</dt>
            <dd>
              <Rate value={r.crash_free_users} />
              {` (${r.users.crashed} of ${r.users.total} users crashed)`}
            </dd>
            <dt>Adoption</dt>
            <dd>
              {`${formatPercent(r.adoption)} of the sessions of the last 24 hours in ${r.environment ?? 'all environments'}`}
            </dd>
            <dt>First seen</dt>
            <dd>
              <Time iso={r.first_seen_at} text={relativeTime(r.first_seen_at, now)} />
            </dd>
            <dt>Last seen</dt>
            <dd>
              <Time iso={r.last_seen_at} text={relativeTime(r.last_seen_at, now)} />
            </dd>
            <dt>Window</dt>
            <dd>
              <time datetime={r.since}>{r.since}</time> to <time datetime={r.until}>{r.until}</time>
            </dd>
          </dl>
          <h2 id="sessions">Sessions</h2>
          <Counts release={r} />
          <SessionChart
            series={r.series}
            since={r.since}
            until={r.until}
            intervalSeconds={r.interval_seconds}
            title={`Sessions of ${r.version} over time, with crashed and errored sessions`}
          />
          <h2 id="new-issues">New issues</h2>
          {r.new_issues.length ? (
            <table>
              <caption class="skip">Issues first seen in this release, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Issue</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Events
                  </th>
                  <th scope="col">First seen</th>
                </tr>
              </thead>
              <tbody>
                {r.new_issues.map((i) => (
                  <tr>
                    <td>
                      <a href={`${base}/issues/${i.id}`}>
                        <Marked text={i.title} />
                      </a>
                    </td>
                    <td>
                      <Badge value={i.status} />
                    </td>
                    <td class="num">{i.count}</td>
                    <td>
                      <Time iso={i.first_seen_at} text={relativeTime(i.first_seen_at, now)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="muted">No issue was first seen in this release.</p>
          )}
          <h2 id="deployments">Deployments</h2>
          {r.deployments.length ? (
            r.deployments.map((d) => (
              <section aria-label={`Deployment to ${d.environment}`}>
                <h3>{`${d.environment} · ${d.deployed_at ?? ''}`}</h3>
                <DeploymentLinks
                  deployment={d}
                  project={{ base: deps.base, projectId: project.id }}
                />
              </section>
            ))
          ) : (
            <p class="muted">
              No deployment of this release. Record one from CI with{' '}
              <code>POST /api/v1/deployments</code>.
            </p>
          )}
        </>
      ),
    })
  })
}
