/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type {
  StoredDeployment as DeploymentJson,
  DeploymentPage,
  StoredEvent as EventJson,
  EventPage,
  Frame as FrameJson,
  Issue as IssueJson,
  IssueMerged,
  SourceCommit as StoredSourceCommit,
} from '@tis/schema'
import type { DashboardApp, DashboardContext, Deps } from '../context'
import { ok } from '../engine-client'
import { relativeTime, shortId } from '../format'
import { Badge, type Html, Time } from '../layout'
import { loadProject, renderPage } from '../render'
import { DeploymentLinks } from './deployment-links'
import { Breadcrumbs, KeyValues, OtherContext, ScrubbingReport } from './event-context'
import { EventTable } from './event-table'
import { Marked } from './filtered'
import { withVars } from './frame-vars'
import { IssueActions } from './issue-actions'
import { AssigneeForm, loadMembers } from './issue-assign'
import { IssueDiscussion, loadDiscussion } from './issue-discussion'
import { IgnoreMenu, type IgnoreRefusal, ignoreSaid } from './issue-ignore'
import { hasMapFields, withMapFields } from './map-frames'
import { ReleaseLink } from './release-link'
import { SourceCommit } from './source-frames'
import { StackTrace } from './stack-trace'

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}

/** The detail's resolved frames; the exception's own frames from an engine without them. */
const framesOf = (frames: FrameJson[] | undefined, exception: Record<string, unknown>) =>
  frames ?? (Array.isArray(exception['frames']) ? (exception['frames'] as FrameJson[]) : [])

/** "First seen N minutes after deploy X", when the issue appeared after the deployment. */
function AfterDeploy(props: { issue: IssueJson; deployment: DeploymentJson }): Html | null {
  const { issue, deployment } = props
  const minutes = Math.round(
    (new Date(issue.first_seen_at ?? 0).getTime() -
      new Date(deployment.deployed_at ?? 0).getTime()) /
      60_000,
  )
  if (minutes < 0) return null
  return (
    <p>
      <strong>{`First seen ${minutes} minute${minutes === 1 ? '' : 's'} after deploy ${deployment.release}`}</strong>{' '}
      {`(${deployment.environment}${deployment.commit_sha ? `, ${shortId(deployment.commit_sha, 7)}` : ''}).`}
    </p>
  )
}

/** `GET /projects/:id/issues/:issue_id` */
export function registerIssue(app: DashboardApp, deps: Deps): void {
  app.get('/projects/:id/issues/:issue_id', (c) => renderIssuePage(c, deps))
}

/**
 * The issue page of the request; `refused` is an ignore form the engine refused, shown open with
 * its message and what was typed, with `status`.
 */
export async function renderIssuePage(
  c: DashboardContext,
  deps: Deps,
  refused?: IgnoreRefusal,
  status = 200,
): Promise<Response> {
  const session = c.get('session')
  const project = await loadProject(c, deps)
  const reads = deps.engine.reads
  const params = { id: project.id }
  const found = await session.call(reads.getIssue, {
    params: { ...params, issue_id: c.req.param('issue_id') ?? '' },
  })
  // A merged issue's page moves to the issue it was merged into (docs/issues.md#merging-issues).
  if (found.status === 301) {
    const { merged_into } = found.body as IssueMerged
    return c.redirect(`${deps.base}/projects/${project.id}/issues/${merged_into}`, 301)
  }
  const { issue } = ok<{ issue: IssueJson }>(found)
  const [detail, latest, firstDeploy, members, discussion] = await Promise.all([
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
    loadMembers(deps, session, project.id),
    loadDiscussion(deps, session, { id: project.id, issue_id: issue.id }),
  ])
  const event =
    detail && detail.status === 200
      ? (detail.body as {
          event: EventJson
          deployment: DeploymentJson | null
          related: EventJson[]
          source_commit?: StoredSourceCommit
          frames?: FrameJson[]
        })
      : { event: null, deployment: null, related: [] }
  const deployment =
    (firstDeploy ? ok<DeploymentPage>(firstDeploy).deployments[0] : undefined) ?? event.deployment
  const context = record(event.event?.context)
  const exception = record(context['exception'])
  const frames = withVars(
    withMapFields(
      framesOf('frames' in event ? event.frames : undefined, exception),
      exception['frames'],
    ),
    exception['frames'],
  )
  // The frames as sent, when the source maps changed any (`?frames=raw`, a plain link).
  const raw = c.req.query('frames') === 'raw' && hasMapFields(frames)
  const now = deps.now()
  const base = `${deps.base}/projects/${project.id}`
  const back = `${base}/issues/${issue.id}`
  const traceId = event.event?.trace_id
  const link = { base: deps.base, projectId: project.id }
  const ignored = issue.status === 'ignored' ? ignoreSaid(issue.ignore_until) : null
  return renderPage(c, deps, {
    title: `${issue.title} · ${project.name}`,
    status,
    project: { id: project.id, name: project.name, tab: 'issues' },
    body: (
      <>
        <h1>
          <Marked text={issue.title} />
        </h1>
        <div class="issue-actions">
          <Badge value={issue.status} />
          {ignored && <span class="muted">{` ${ignored}`}</span>}{' '}
          {issue.events_expired && <span class="badge s-expired">events expired</span>}{' '}
          <IssueActions
            deps={deps}
            session={session}
            target={{ issue, projectId: project.id, back, inPlace: false }}
            statuses={['resolved', 'unresolved']}
          />
          {issue.status !== 'ignored' && (
            <IgnoreMenu
              deps={deps}
              session={session}
              issue={issue}
              projectId={project.id}
              back={back}
              refused={refused}
            />
          )}
        </div>
        <AssigneeForm
          deps={deps}
          session={session}
          issue={issue}
          projectId={project.id}
          members={members}
          back={back}
        />
        <dl class="facts">
          <dt>Exception</dt>
          <dd>{String(exception['exception_class'] ?? exception['class'] ?? '—')}</dd>
          <dt>Level</dt>
          <dd>{issue.level}</dd>
          <dt>Events</dt>
          <dd>{issue.count}</dd>
          <dt>Users</dt>
          <dd>{issue.users}</dd>
          <dt>First seen</dt>
          <dd>
            <Time iso={issue.first_seen_at} text={relativeTime(issue.first_seen_at, now)} />
            {issue.first_release && (
              <>
                {' in '}
                <ReleaseLink {...link} version={issue.first_release} />
              </>
            )}
          </dd>
          <dt>Last seen</dt>
          <dd>
            <Time iso={issue.last_seen_at} text={relativeTime(issue.last_seen_at, now)} />
            {issue.last_release && (
              <>
                {' in '}
                <ReleaseLink {...link} version={issue.last_release} />
              </>
            )}
          </dd>
          {issue.regression_count > 0 && (
            <>
              <dt>Regressions</dt>
              <dd>{`${issue.regression_count} (last in ${issue.regressed_in_release ?? 'unknown release'})`}</dd>
            </>
          )}
        </dl>
        <ScrubbingReport context={context} />
        <h2>Deployment</h2>
        {deployment ? (
          <>
            <AfterDeploy issue={issue} deployment={deployment} />
            <DeploymentLinks deployment={deployment} project={link} />
          </>
        ) : (
          <p class="muted">
            No deployment is known for this issue's release. Record deployments with{' '}
            <code>POST /api/v1/deployments</code>.
          </p>
        )}
        <h2 id="stack-trace">Stack trace</h2>
        {exception['message'] ? (
          <p>
            <code>
              <Marked text={String(exception['message'])} />
            </code>
          </p>
        ) : null}
        {/* Where excerpts come from matters only for frames shown without the map's lines. */}
        {'frames' in event && !raw && frames.some((f) => f.context_line === undefined) && (
          <SourceCommit commit={event.source_commit} />
        )}
        <StackTrace frames={frames} settings={`${base}/settings#source`} raw={raw} here={back} />
        <h2>Request</h2>
        <KeyValues values={record(context['request'])} caption="Request context" />
        <h2>Tags</h2>
        <KeyValues values={record(context['tags'])} caption="Tags" />
        <Breadcrumbs context={context} />
        <OtherContext context={context} />
        <IssueDiscussion
          deps={deps}
          session={session}
          path={back}
          comments={discussion.comments}
          activity={discussion.activity}
          ownerEmail={members.find((m) => m.role === 'owner')?.email ?? null}
          back={back}
        />
        {issue.events_expired ? (
          <p class="notice" id="events-expired">
            Every event of this issue is older than the project's retention period and was deleted;
            the count and first/last seen remain.
          </p>
        ) : (
          <>
            <h2>Latest events</h2>
            <EventTable
              deps={deps}
              projectId={project.id}
              events={ok<EventPage>(latest).events}
              caption="Latest events of this issue"
            />
            <h2>Related logs and events</h2>
            <p class="muted">
              Sharing the latest event's trace, request or session id
              {traceId && (
                <>
                  {' ('}
                  <a href={`${base}/traces/${traceId}`}>view the trace</a>)
                </>
              )}
              .
            </p>
            <EventTable
              deps={deps}
              projectId={project.id}
              events={event.related}
              caption="Related events"
            />
          </>
        )}
      </>
    ),
  })
}
