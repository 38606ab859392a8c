import { html } from 'hono/html'
import type { DashboardApp, Deps } from '../context'
import { ok } from '../engine-client'
import { relativeTime, shortId } from '../format'
import { badge, type Html, time } from '../layout'
import { loadProject, renderPage } from '../render'
import type { DeploymentJson, EventJson, IssueJson, Page } from '../types'
import { deploymentLinks } from './deployment-links'
import { eventTable } from './event-table'
import { issueActions } from './issues'

interface Frame {
  function?: string
  filename?: string
  lineno?: number
  colno?: number
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}

function frames(exception: Record<string, unknown>): Html {
  const list = Array.isArray(exception['frames']) ? (exception['frames'] as Frame[]) : []
  if (list.length === 0) return html`<p class="muted">No stack frames were sent.</p>`
  return html`<ol class="frames">${list.map(
    (f) =>
      html`<li><code>${f.function || '<anonymous>'}</code> <span class="muted">${f.filename ?? '?'}:${f.lineno ?? '?'}:${f.colno ?? '?'}</span></li>`,
  )}</ol>`
}

function keyValues(values: Record<string, unknown>, caption: string): Html {
  const entries = Object.entries(values)
  if (entries.length === 0) return html`<p class="muted">None.</p>`
  return html`<table><caption class="skip">${caption}</caption><tbody>${entries.map(
    ([k, v]) =>
      html`<tr><th scope="row">${k}</th><td>${typeof v === 'string' ? v : html`<code>${JSON.stringify(v)}</code>`}</td></tr>`,
  )}</tbody></table>`
}

/** "First seen N minutes after deploy X", when the issue appeared after the deployment. */
function afterDeploy(issue: IssueJson, deployment: DeploymentJson | null): Html {
  if (!deployment) return html``
  const minutes = Math.round(
    (new Date(issue.first_seen_at).getTime() - new Date(deployment.deployed_at).getTime()) / 60_000,
  )
  if (minutes < 0) return html``
  return html`<p><strong>First seen ${minutes} minute${minutes === 1 ? '' : 's'} after deploy ${deployment.release}</strong>
(${deployment.environment}${deployment.commit_sha ? `, ${shortId(deployment.commit_sha, 7)}` : ''}).</p>`
}

/** `GET /projects/:id/issues/:issue_id` */
export function registerIssue(app: DashboardApp, deps: Deps): void {
  app.get('/projects/:id/issues/:issue_id', async (c) => {
    const session = c.get('session')
    const project = await loadProject(c, deps)
    const reads = deps.engine.reads
    const params = { id: project.id }
    const { issue } = ok<{ issue: IssueJson }>(
      await session.call(reads.getIssue, {
        params: { ...params, issue_id: c.req.param('issue_id') },
      }),
    )
    const [detail, latest, firstDeploy] = await Promise.all([
      issue.latest_event_id
        ? session.call(reads.getEvent, { params: { ...params, event_id: issue.latest_event_id } })
        : null,
      session.call(reads.listEvents, { params, query: { issue_id: issue.id, limit: '10' } }),
      issue.first_release
        ? session.call(reads.listDeployments, {
            params,
            query: { release: issue.first_release, limit: '1' },
          })
        : null,
    ])
    const event =
      detail && detail.status === 200
        ? (detail.body as {
            event: EventJson
            deployment: DeploymentJson | null
            related: EventJson[]
          })
        : { event: null, deployment: null, related: [] }
    const deployment =
      (firstDeploy
        ? ok<Page<'deployments', DeploymentJson>>(firstDeploy).deployments[0]
        : undefined) ?? event.deployment
    const context = record(event.event?.context)
    const exception = record(context['exception'])
    const now = deps.now()
    const back = `${deps.base}/projects/${project.id}/issues/${issue.id}`
    return renderPage(c, deps, {
      title: `${issue.title} · ${project.name}`,
      project: { id: project.id, name: project.name, tab: 'issues' },
      body: html`<h1>${issue.title}</h1>
<p>${badge(issue.status)} ${issueActions(deps, session, { issue, projectId: project.id, back, inPlace: false })}</p>
<dl class="facts"><dt>Exception</dt><dd>${String(exception['exception_class'] ?? exception['class'] ?? '—')}</dd>
<dt>Level</dt><dd>${issue.level}</dd><dt>Events</dt><dd>${issue.count}</dd>
<dt>First seen</dt><dd>${time(issue.first_seen_at, relativeTime(issue.first_seen_at, now))}${issue.first_release ? ` in ${issue.first_release}` : ''}</dd>
<dt>Last seen</dt><dd>${time(issue.last_seen_at, relativeTime(issue.last_seen_at, now))}${issue.last_release ? ` in ${issue.last_release}` : ''}</dd>
${issue.regression_count ? html`<dt>Regressions</dt><dd>${issue.regression_count} (last in ${issue.regressed_in_release ?? 'unknown release'})</dd>` : ''}</dl>
<h2>Deployment</h2>${
        deployment
          ? html`${afterDeploy(issue, deployment)}${deploymentLinks(deployment)}`
          : html`<p class="muted">No deployment is known for this issue's release. Record deployments with <code>POST /api/v1/deployments</code>.</p>`
      }
<h2>Stack trace</h2>${exception['message'] ? html`<p><code>${String(exception['message'])}</code></p>` : ''}${frames(exception)}
<h2>Request</h2>${keyValues(record(context['request']), 'Request context')}
<h2>Tags</h2>${keyValues(record(context['tags']), 'Tags')}
<h2>Latest events</h2>${eventTable(deps, project.id, ok<Page<'events', EventJson>>(latest).events, 'Latest events of this issue')}
<h2>Related logs and events</h2><p class="muted">Sharing the latest event's trace, request or session id${
        event.event?.trace_id
          ? html` (<a href="${deps.base}/projects/${project.id}/traces/${event.event.trace_id}">view the trace</a>)`
          : ''
      }.</p>${eventTable(deps, project.id, event.related, 'Related events')}`,
    })
  })
}
