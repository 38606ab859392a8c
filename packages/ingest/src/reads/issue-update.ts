import type { AssigneeMatch, IssueAnswer, SearchFilter } from '@tis/schema'
import { type EngineRequest, type EngineResponse, json } from '../http'
import { knownFields, readManagementBody } from '../management/body'
import type {
  IgnoreCondition,
  IssueActor,
  IssueChange,
  IssueStatus,
  ManagementStore,
  ProjectRecord,
  ReadStore,
  UserRecord,
} from '../ports'
import { issueJson } from './json'

// `PATCH …/issues/:issue_id` (status and assignee, docs/issues.md#assignees) and the `assigned:`
// terms of a search, whose `me` and emails name users the store knows by id.

const ISSUE_STATUSES: readonly IssueStatus[] = ['unresolved', 'resolved', 'ignored']
const CHANGE_FIELDS = ['status', 'assignee', 'ignore_until']

/** What the issue operations read besides the issues: users and memberships. */
export type AssigneeStore = Pick<ManagementStore, 'findUserByEmail' | 'isMember'>

const MAX_IGNORE_COUNT = 1_000_000_000
const MAX_WINDOW_SECONDS = 30 * 86_400
const MAX_IGNORE_DAYS = 3660

const whole = (v: unknown, max: number) =>
  Number.isInteger(v) && (v as number) >= 1 && (v as number) <= max

/**
 * `ignore_until`: exactly one of `{count}`, `{count, window_seconds}`, `{users}`, `{until}`
 * (docs/issues.md#ignore-until), or what is wrong with it.
 */
function ignoreCondition(value: unknown, now: Date): IgnoreCondition | string {
  const shapes =
    'must be {"count": N}, {"count": N, "window_seconds": S}, {"users": N} or {"until": "<RFC 3339 time>"}'
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return shapes
  const v = value as Record<string, unknown>
  const keys = Object.keys(v).sort().join(',')
  if (keys === 'count' || keys === 'count,window_seconds') {
    if (!whole(v['count'], MAX_IGNORE_COUNT))
      return 'count must be a whole number from 1 to 1,000,000,000'
    if (keys === 'count') return { count: v['count'] as number }
    if (!whole(v['window_seconds'], MAX_WINDOW_SECONDS) || (v['window_seconds'] as number) < 60) {
      return 'window_seconds must be a whole number of seconds from 60 to 2,592,000 (30 days)'
    }
    return { count: v['count'] as number, windowSeconds: v['window_seconds'] as number }
  }
  if (keys === 'users') {
    return whole(v['users'], MAX_IGNORE_COUNT)
      ? { users: v['users'] as number }
      : 'users must be a whole number from 1 to 1,000,000,000'
  }
  if (keys === 'until') {
    const text = v['until']
    const at = typeof text === 'string' && RFC3339.test(text) ? new Date(text) : null
    if (!at || Number.isNaN(at.getTime())) return 'until must be an RFC 3339 time'
    if (at.getTime() <= now.getTime()) return 'until must be in the future'
    if (at.getTime() > now.getTime() + MAX_IGNORE_DAYS * 86_400_000) {
      return 'until must be within 10 years'
    }
    return { until: at }
  }
  return shapes
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i

/** The user of `email` when they may be assigned issues of `project` (its owner or a member). */
async function memberByEmail(
  store: AssigneeStore,
  project: ProjectRecord,
  email: string,
): Promise<UserRecord | null> {
  const user = await store.findUserByEmail(email)
  if (!user) return null
  const member = project.ownerId === user.id || (await store.isMember(project.id, user.id))
  return member ? user : null
}

/**
 * The validated change of a body's `key` envelope (`issue` of a PATCH, `update` of a bulk
 * PATCH), or its 400/422 answer; messages name `key`.
 */
export async function issueChange(
  store: AssigneeStore,
  project: ProjectRecord,
  request: EngineRequest,
  now: Date,
  key = 'issue',
): Promise<{ ok: true; change: IssueChange } | { ok: false; response: EngineResponse }> {
  const body = readManagementBody(request, { key, fields: CHANGE_FIELDS })
  if (!body.ok) return body
  const { fields, errors } = knownFields(body.value, key, CHANGE_FIELDS)
  const change: {
    status?: IssueStatus
    assigneeId?: string | null
    ignoreUntil?: IgnoreCondition
  } = {}
  if ('status' in fields) {
    const status = fields['status']
    if (typeof status === 'string' && ISSUE_STATUSES.includes(status as IssueStatus)) {
      change.status = status as IssueStatus
    } else errors.push(`${key}.status must be one of unresolved, resolved, ignored`)
  }
  if ('assignee' in fields) {
    const assignee = fields['assignee']
    if (assignee === null) change.assigneeId = null
    else if (typeof assignee !== 'string' || assignee.trim() === '') {
      errors.push(`${key}.assignee must be the email of a member of this project, or null`)
    } else {
      const user = await memberByEmail(store, project, assignee.trim())
      if (user) change.assigneeId = user.id
      else errors.push(`${key}.assignee must be the email of a member of this project`)
    }
  }
  if ('ignore_until' in fields && fields['ignore_until'] !== null) {
    const condition = ignoreCondition(fields['ignore_until'], now)
    if (typeof condition === 'string') errors.push(`${key}.ignore_until ${condition}`)
    else if (change.status !== 'ignored') {
      errors.push(`${key}.ignore_until needs "status": "ignored" beside it`)
    } else change.ignoreUntil = condition
  }
  return errors.length > 0 ? { ok: false, response: json(422, { errors }) } : { ok: true, change }
}

/**
 * `PATCH …/issues/:issue_id`: both fields checked before either is written, with a history entry
 * by `by` for each that changed.
 */
export async function updateIssue(
  store: Pick<ReadStore, 'findIssue' | 'changeIssues'> & AssigneeStore,
  project: ProjectRecord,
  issueId: string,
  request: EngineRequest,
  by: IssueActor,
): Promise<EngineResponse> {
  const NOT_FOUND = json(404, { error: 'Not found' })
  const issue = await store.findIssue(project.id, issueId)
  if (!issue) return NOT_FOUND
  const parsed = await issueChange(store, project, request, by.at)
  if (!parsed.ok) return parsed.response
  const { issues } = await store.changeIssues(project.id, [issue.id], parsed.change, by)
  const updated = issues[0]
  return updated ? json(200, { issue: issueJson(updated) } satisfies IssueAnswer) : NOT_FOUND
}

/**
 * The `assigned:` terms of a search with `me` as the caller and each email as its user: a 400
 * body naming an email that is no user's. An email of a user who is no longer a member still
 * finds what they were assigned.
 */
export async function resolveAssignees(
  store: Pick<ManagementStore, 'findUserByEmail'>,
  caller: UserRecord,
  filters: readonly SearchFilter[] | undefined,
): Promise<
  { ok: true; filters: readonly SearchFilter[] | undefined } | { ok: false; error: string }
> {
  if (!filters?.some((f) => f.kind === 'assigned')) return { ok: true, filters }
  const resolved: SearchFilter[] = []
  for (const f of filters) {
    if (f.kind !== 'assigned') {
      resolved.push(f)
      continue
    }
    const values: AssigneeMatch[] = []
    for (const v of f.values) {
      if (v.kind === 'me') values.push({ kind: 'user', userId: caller.id })
      else if (v.kind === 'email') {
        const user = await store.findUserByEmail(v.email)
        if (!user) return { ok: false, error: `query names no user in assigned:${v.email}` }
        values.push({ kind: 'user', userId: user.id })
      } else values.push(v)
    }
    resolved.push({ ...f, values })
  }
  return { ok: true, filters: resolved }
}
