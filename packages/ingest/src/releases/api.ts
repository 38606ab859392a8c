import { type EngineRequest, type EngineResponse, json } from '../http'
import { type ReadBarrier, readBehind } from '../log/read-barrier'
import type { ManagementOperation, ProjectAccess } from '../management/access'
import type { ProjectRecord } from '../ports'
import type { ReleaseHealthStore } from '../ports/release-health'
import { deploymentJson, issueJson } from '../reads/json'
import { encodeReleaseCursor, parseReleaseListQuery, parseReleaseQuery } from './query'
import { releaseJson, seriesInterval } from './window'

/** Issues and deployments a release's detail lists. */
export const RELEASE_DETAIL_LIMIT = 50

/** The two release reads (docs/release-health.md). */
export interface ReleaseReads {
  /** `GET /api/v1/projects/:id/releases` */
  listReleases: ManagementOperation
  /** `GET /api/v1/projects/:id/releases/:version` */
  getRelease: ManagementOperation
}

/** What {@link createReleaseReads} reads with. */
export interface ReleaseReadsOptions {
  readonly store: ReleaseHealthStore
  readonly access: Pick<ProjectAccess, 'project'>
  readonly barrier?: ReadBarrier | undefined
  readonly now: () => Date
}

const NOT_FOUND = { error: 'Not found' } as const

/** The release reads, with the access rules and read barrier of every other read. */
export function createReleaseReads(options: ReleaseReadsOptions): ReleaseReads {
  const { store, access, barrier, now } = options
  const withProject = (
    fn: (request: EngineRequest, project: ProjectRecord) => Promise<EngineResponse>,
  ): ManagementOperation =>
    access.project(
      false,
      barrier ? (request, project) => readBehind(barrier, () => fn(request, project)) : fn,
    )

  return {
    listReleases: withProject(async (request, project) => {
      const parsed = parseReleaseListQuery(project.id, request.query ?? {}, now())
      if (!parsed.ok) return json(422, { errors: parsed.errors })
      const q = parsed.value
      const rows = await store.listReleases({ ...q, limit: q.limit + 1 })
      const shown = rows.slice(0, q.limit)
      const last = shown.at(-1)
      return json(200, {
        releases: shown.map((r) => releaseJson(r, q.environment)),
        next_cursor:
          rows.length > q.limit && last ? encodeReleaseCursor(last.lastSeenAt, last.version) : null,
      })
    }),

    getRelease: withProject(async (request, project) => {
      const version = request.params?.['version'] ?? ''
      if (version === '' || version.length > 200 || version.includes('\u0000')) {
        return json(404, NOT_FOUND)
      }
      const parsed = parseReleaseQuery(project.id, request.query ?? {}, now())
      if (!parsed.ok) return json(422, { errors: parsed.errors })
      const q = { ...parsed.value, version }
      const found = await store.findRelease(q)
      if (!found) return json(404, NOT_FOUND)
      const bucketSeconds = seriesInterval(q.since, q.until)
      const [series, issues, deployments] = await Promise.all([
        store.releaseSeries({ ...q, bucketSeconds }),
        store.releaseIssues(project.id, version, RELEASE_DETAIL_LIMIT),
        store.releaseDeployments(project.id, version, RELEASE_DETAIL_LIMIT),
      ])
      return json(200, {
        release: {
          ...releaseJson(found, q.environment),
          since: q.since.toISOString(),
          until: q.until.toISOString(),
          interval_seconds: bucketSeconds,
          series: series.map((b) => ({
            at: b.at.toISOString(),
            sessions: b.sessions,
            crashed: b.crashed,
            errored: b.errored,
          })),
          new_issues: issues.map(issueJson),
          deployments: deployments.map(deploymentJson),
        },
      })
    }),
  }
}
