import { type IssueMergeAnswer, type IssueMerged, MAX_MERGE_ISSUES } from '@tis/schema'
import { type EngineRequest, type EngineResponse, json } from '../http'
import type { ManagementOperation } from '../management/access'
import { knownFields, readManagementBody } from '../management/body'
import type { ReadStore } from '../ports'
import type { ProjectReadBody } from './issue-history'
import { issueJson } from './json'
import { UUID } from './query-fields'

// `POST /api/v1/projects/:id/issues/merge` (docs/issues.md#merging-issues), and the pointers a
// merged issue's id answers with instead of a 404.

const unprocessable = (...errors: string[]) => json(422, { errors })
const count = MAX_MERGE_ISSUES.toLocaleString('en-US')
const MERGE_FIELDS = ['issue_ids', 'into']

/** What a merge reads and writes. */
type MergeStore = Pick<ReadStore, 'mergeIssues' | 'findMergedIssue'>

/** The issue ids of `merge`, and the one to keep, or the 422 that says what is wrong. */
function mergeFields(
  fields: Readonly<Record<string, unknown>>,
): { ok: true; ids: readonly string[]; into: string | null } | { ok: false; errors: string[] } {
  const errors: string[] = []
  const ids = fields['issue_ids']
  const valid = Array.isArray(ids) && ids.length >= 2 && ids.length <= MAX_MERGE_ISSUES
  if (!valid) errors.push(`merge.issue_ids must be an array of 2 to ${count} issue ids`)
  const bad = valid ? ids.find((id) => typeof id !== 'string' || !UUID.test(id)) : undefined
  if (bad !== undefined) {
    errors.push(`merge.issue_ids has ${JSON.stringify(bad)}, which is not an issue id`)
  }
  const into = fields['into'] ?? null
  if (into !== null && (typeof into !== 'string' || !UUID.test(into))) {
    errors.push('merge.into must be the id of one of merge.issue_ids')
  } else if (
    into !== null &&
    valid &&
    !ids.some((id) => typeof id === 'string' && id.toLowerCase() === into.toLowerCase())
  ) {
    errors.push('merge.into must be one of merge.issue_ids')
  }
  if (errors.length > 0) return { ok: false, errors }
  return { ok: true, ids: ids as string[], into: into as string | null }
}

/** Creates `mergeIssues` of the read API. */
export function createIssueMergeApi(deps: {
  store: MergeStore
  now: () => Date
  withProject: (fn: ProjectReadBody) => ManagementOperation
}): { mergeIssues: ManagementOperation } {
  const { store, now, withProject } = deps
  return {
    mergeIssues: withProject(async (request, project, user) => {
      const body = readManagementBody(request, { key: 'merge', fields: MERGE_FIELDS })
      if (!body.ok) return body.response
      const known = knownFields(body.value, 'merge', MERGE_FIELDS)
      const fields = mergeFields(known.fields)
      const errors = [...known.errors, ...(fields.ok ? [] : fields.errors)]
      if (errors.length > 0 || !fields.ok) return unprocessable(...errors)
      const result = await store.mergeIssues(project.id, fields.ids, fields.into, {
        userId: user.id,
        at: now(),
      })
      if (!result.ok) {
        return unprocessable(
          `merge.issue_ids has ${JSON.stringify(result.missing)}, which is not an issue of this project`,
        )
      }
      return json(200, {
        issue: issueJson(result.issue),
        merged: [...result.merged],
      } satisfies IssueMergeAnswer)
    }),
  }
}

/**
 * `fn` of an operation on `…/issues/:issue_id<rest>`, answering for an issue merged into another
 * with a pointer to the same path under it rather than its 404: `301` for a GET (clients follow
 * it), `308` for a write (followed with its method and body). Only once `fn` found no issue, so
 * it costs nothing on the way to an issue that is there; inside the project's access check, so
 * it tells nothing to a user who may not see the project.
 */
export function followMerged(
  store: MergeStore,
  fn: ProjectReadBody,
  rest: (request: EngineRequest) => string = () => '',
  method: 'GET' | 'write' = 'GET',
): ProjectReadBody {
  return async (request, project, user, admin): Promise<EngineResponse> => {
    const answer = await fn(request, project, user, admin)
    if (answer.status !== 404) return answer
    const into = await store.findMergedIssue(project.id, request.params?.['issue_id'] ?? '')
    if (into === null) return answer
    const query = queryString(request.query)
    const location = `/api/v1/projects/${project.id}/issues/${into}${rest(request)}${query}`
    return pointer(method === 'GET' ? 301 : 308, into, location)
  }
}

/**
 * `fn` of `GET …/events`, answering an empty page of `issue_id=<a merged issue>` with a 301 to
 * the same list of the issue it was merged into (whose events they now are).
 */
export function followMergedFilter(store: MergeStore, fn: ProjectReadBody): ProjectReadBody {
  return async (request, project, user, admin): Promise<EngineResponse> => {
    const answer = await fn(request, project, user, admin)
    const issueId = request.query?.['issue_id']
    const rows = (answer.body as { events?: unknown[] } | null)?.events
    if (answer.status !== 200 || !issueId || rows?.length !== 0) return answer
    const into = await store.findMergedIssue(project.id, issueId)
    if (into === null) return answer
    const query = queryString({ ...request.query, issue_id: into })
    return pointer(301, into, `/api/v1/projects/${project.id}/events${query}`)
  }
}

function pointer(status: 301 | 308, into: string, location: string): EngineResponse {
  return json(
    status,
    { error: `This issue was merged into ${into}`, merged_into: into } satisfies IssueMerged,
    { location },
  )
}

/** `?a=1&b=2` of a request's query (nothing when it has none). */
function queryString(query: EngineRequest['query']): string {
  const text = new URLSearchParams(
    Object.entries(query ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
  ).toString()
  return text ? `?${text}` : ''
}
