import {
  ERROR_BODIES,
  type IssueActivity,
  type IssueActivityPage,
  type IssueComment,
  type IssueCommentAnswer,
  type IssueCommentPage,
  MAX_COMMENT_LENGTH,
} from '@tis/schema'
import { z } from 'zod'
import { type EngineRequest, type EngineResponse, json } from '../http'
import { uuidv7 } from '../ids'
import type { ManagementOperation } from '../management/access'
import { readManagementBody } from '../management/body'
import type {
  IssueCommentRecord,
  IssueHistoryEntry,
  IssueHistoryQuery,
  ProjectRecord,
  ReadStore,
  UserRecord,
} from '../ports'
import { keysetPage } from './cursor'
import { cursor, DEFAULT_PAGE_SIZE, limit, parse } from './query-fields'
import { isoOrNull } from './stored-values'

// Comments and the history of an issue (docs/issues.md#comments-and-history):
// `GET/POST …/issues/:issue_id/comments`, `DELETE …/comments/:comment_id`, `GET …/activity`.

const NOT_FOUND = json(404, { error: 'Not found' })

/** The query of the two lists: oldest first, keyset pages. */
export const HISTORY_QUERY = z.object({ limit, cursor })

/** The comment and history operations of the read API. */
export interface IssueHistoryApi {
  /** `GET …/issues/:issue_id/comments` — oldest first. */
  listIssueComments: ManagementOperation
  /** `POST …/issues/:issue_id/comments` */
  createIssueComment: ManagementOperation
  /** `DELETE …/issues/:issue_id/comments/:comment_id` — by its author, the owner or an administrator. */
  deleteIssueComment: ManagementOperation
  /** `GET …/issues/:issue_id/activity` — every change, oldest first. */
  listIssueActivity: ManagementOperation
}

/** A read operation on a project the user may see (`withProject` of the read API). */
export type ProjectReadBody = (
  request: EngineRequest,
  project: ProjectRecord,
  user: UserRecord,
  admin: boolean,
) => Promise<EngineResponse>

/**
 * `withProject` of an operation on `…/issues/:issue_id<rest>`: a merged issue's id answers with
 * a pointer to the issue it was merged into (`followMerged` of issue-merge.ts).
 */
export type WithIssue = (
  fn: ProjectReadBody,
  rest?: (request: EngineRequest) => string,
  method?: 'GET' | 'write',
) => ManagementOperation

const commentJson = (c: IssueCommentRecord): IssueComment => ({
  id: c.id,
  issue_id: c.issueId,
  author: c.author?.email ?? null,
  body: c.body,
  created_at: isoOrNull(c.createdAt),
})

const activityJson = (e: IssueHistoryEntry): IssueActivity => ({
  id: e.id,
  kind: e.kind,
  actor: e.actor,
  data: { ...e.data },
  created_at: isoOrNull(e.createdAt),
})

const COMMENTS = () => '/comments'

const issueIdOf = (request: EngineRequest) => request.params?.['issue_id'] ?? ''

/** Creates {@link IssueHistoryApi} over the read store. */
export function createIssueHistoryApi(deps: {
  store: Pick<
    ReadStore,
    | 'findIssue'
    | 'addIssueComment'
    | 'listIssueComments'
    | 'findIssueComment'
    | 'deleteIssueComment'
    | 'listIssueHistory'
  >
  now: () => Date
  withIssue: WithIssue
}): IssueHistoryApi {
  const { store, now, withIssue } = deps

  /** A page of one issue's list, 404 for an issue the project does not have. */
  const historyPage = async <R, J>(
    request: EngineRequest,
    project: ProjectRecord,
    fetch: (q: IssueHistoryQuery) => Promise<readonly R[]>,
    position: (row: R) => { at: Date; id: string },
    answer: (rows: readonly R[], next: string | null) => J,
  ): Promise<EngineResponse> => {
    const issue = await store.findIssue(project.id, issueIdOf(request))
    if (!issue) return NOT_FOUND
    const parsed = parse(HISTORY_QUERY, request.query ?? {})
    const page = await keysetPage(
      parsed.ok
        ? {
            ok: true,
            value: {
              projectId: project.id,
              issueId: issue.id,
              ...(parsed.value.cursor ? { after: parsed.value.cursor } : {}),
              limit: parsed.value.limit ?? DEFAULT_PAGE_SIZE,
            },
          }
        : parsed,
      fetch,
      position,
    )
    if ('status' in page) return page
    return json(200, answer(page.rows, page.next))
  }

  return {
    listIssueComments: withIssue(
      (request, project) =>
        historyPage(
          request,
          project,
          (q) => store.listIssueComments(q),
          (c) => ({ at: c.createdAt, id: c.id }),
          (rows, next): IssueCommentPage => ({
            comments: rows.map(commentJson),
            next_cursor: next,
          }),
        ),
      COMMENTS,
    ),

    createIssueComment: withIssue(
      async (request, project, user) => {
        const issue = await store.findIssue(project.id, issueIdOf(request))
        if (!issue) return NOT_FOUND
        const body = readManagementBody(request, { key: 'comment', fields: ['body'] })
        if (!body.ok) return body.response
        const text = body.value?.['body']
        if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_COMMENT_LENGTH) {
          return json(422, {
            errors: [
              `comment.body must be text of 1 to ${MAX_COMMENT_LENGTH.toLocaleString('en-US')} characters, not only white space`,
            ],
          })
        }
        const at = now()
        const added = await store.addIssueComment({
          id: uuidv7(at.getTime()),
          projectId: project.id,
          issueId: issue.id,
          authorId: user.id,
          body: text,
          createdAt: at,
        })
        if (!added) return NOT_FOUND
        return json(201, { comment: commentJson(added) } satisfies IssueCommentAnswer)
      },
      COMMENTS,
      'write',
    ),

    deleteIssueComment: withIssue(
      async (request, project, user, admin) => {
        const issueId = issueIdOf(request)
        const commentId = request.params?.['comment_id'] ?? ''
        const comment = await store.findIssueComment(project.id, issueId, commentId)
        if (!comment) return NOT_FOUND
        const allowed = admin || project.ownerId === user.id || comment.author?.id === user.id
        if (!allowed) return json(403, ERROR_BODIES.forbidden)
        const deleted = await store.deleteIssueComment(project.id, issueId, commentId, {
          userId: user.id,
          at: now(),
        })
        return deleted ? json(204, null) : NOT_FOUND
      },
      (request) => `/comments/${encodeURIComponent(request.params?.['comment_id'] ?? '')}`,
      'write',
    ),

    listIssueActivity: withIssue(
      (request, project) =>
        historyPage(
          request,
          project,
          (q) => store.listIssueHistory(q),
          (e) => ({ at: e.createdAt, id: e.id }),
          (rows, next): IssueActivityPage => ({
            activity: rows.map(activityJson),
            next_cursor: next,
          }),
        ),
      () => '/activity',
    ),
  }
}
