import { type IssueBulkAnswer, MAX_BULK_ISSUES } from '@tis/schema'
import { type EngineRequest, type EngineResponse, json } from '../http'
import { readManagementBody } from '../management/body'
import type { IssueActor, ProjectRecord, ReadStore, UserRecord } from '../ports'
import { type AssigneeStore, issueChange, resolveAssignees } from './issue-update'
import { UUID } from './query-fields'
import { issueSearch, searchesStatus } from './search'

// `PATCH /api/v1/projects/:id/issues` (docs/issues.md#bulk-changes): one change to many issues,
// named by id or by a search, all or nothing.

const count = MAX_BULK_ISSUES.toLocaleString('en-US')
const unprocessable = (...errors: string[]) => json(422, { errors })
const SCOPE_FIELDS = ['ids', 'query']

/** The body as JSON, or `undefined` (then the envelope reader answers for it). */
function bodyOf(request: EngineRequest): unknown {
  if (request.text === undefined) return request.body
  try {
    return request.text.trim() === '' ? undefined : JSON.parse(request.text)
  } catch {
    return undefined
  }
}

/** The ids `issues` names: its `ids`, or what its `query` finds (at most the cap). */
async function targets(
  store: Pick<ReadStore, 'listIssues'> & AssigneeStore,
  project: ProjectRecord,
  user: UserRecord,
  fields: Readonly<Record<string, unknown>>,
  now: Date,
): Promise<{ ok: true; ids: readonly string[] } | { ok: false; response: EngineResponse }> {
  if ('ids' in fields === 'query' in fields) {
    return { ok: false, response: unprocessable('issues must have either ids or query') }
  }
  if ('ids' in fields) {
    const ids = fields['ids']
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_BULK_ISSUES) {
      return {
        ok: false,
        response: unprocessable(`issues.ids must be an array of 1 to ${count} issue ids`),
      }
    }
    const bad = ids.find((id) => typeof id !== 'string' || !UUID.test(id))
    if (bad !== undefined) {
      return {
        ok: false,
        response: unprocessable(`issues.ids has ${JSON.stringify(bad)}, which is not an issue id`),
      }
    }
    return { ok: true, ids: ids as string[] }
  }
  const query = fields['query']
  if (typeof query !== 'string') {
    return { ok: false, response: unprocessable('issues.query must be a search (docs/issues.md)') }
  }
  const parsed = issueSearch({ query }, now)
  if (!parsed.ok) return { ok: false, response: parsed.response }
  const search = await resolveAssignees(store, user, parsed.filters)
  if (!search.ok) return { ok: false, response: json(400, { error: search.error }) }
  // As in the inbox: unresolved issues unless the search names a status.
  const found = await store.listIssues({
    projectId: project.id,
    status: searchesStatus(search.filters) ? null : 'unresolved',
    ...(search.filters ? { search: search.filters } : {}),
    limit: MAX_BULK_ISSUES + 1,
  })
  if (found.length > MAX_BULK_ISSUES) {
    return {
      ok: false,
      response: unprocessable(
        `issues.query matches more than ${count} issues; narrow it, or change them in parts`,
      ),
    }
  }
  return { ok: true, ids: found.map((i) => i.id) }
}

/** `PATCH …/issues`: `{"issues": {"ids": […]} | {"query": "…"}, "update": {…}}`. */
export async function updateIssues(
  store: Pick<ReadStore, 'listIssues' | 'changeIssues'> & AssigneeStore,
  project: ProjectRecord,
  user: UserRecord,
  request: EngineRequest,
  by: IssueActor,
): Promise<EngineResponse> {
  const body = bodyOf(request)
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    // Not a JSON object (or no body): the envelope reader's 400 says which.
    const refused = readManagementBody(request, { key: 'issues', fields: SCOPE_FIELDS })
    return refused.ok
      ? unprocessable('the body must be {"issues": {…}, "update": {…}}')
      : refused.response
  }
  const extra = Object.keys(body).filter((k) => k !== 'issues' && k !== 'update')
  if (extra.length > 0) {
    return unprocessable(
      ...extra.map((k) => `${k} is not a permitted property (the body takes issues and update)`),
    )
  }
  const root = body as Record<string, unknown>
  const part = (key: string): EngineRequest => ({
    headers: request.headers,
    body: { [key]: root[key] },
  })
  const scope = readManagementBody(part('issues'), { key: 'issues', fields: SCOPE_FIELDS })
  if (!scope.ok) return scope.response
  const change = await issueChange(store, project, part('update'), by.at, 'update')
  if (!change.ok) return change.response
  const found = await targets(store, project, user, scope.value ?? {}, by.at)
  if (!found.ok) return found.response
  const result = await store.changeIssues(project.id, found.ids, change.change, by)
  return json(200, {
    matched: result.issues.length,
    changed: result.changed,
  } satisfies IssueBulkAnswer)
}
