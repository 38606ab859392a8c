import {
  type ApiOperation,
  errorBodySchema,
  issueActivityPageSchema,
  issueBulkAnswerSchema,
  issueBulkUpdateSchema,
  issueCommentAnswerSchema,
  issueCommentCreateSchema,
  issueCommentPageSchema,
  issueMergeAnswerSchema,
  issueMergeSchema,
  MAX_BULK_ISSUES,
  MAX_MERGE_ISSUES,
} from '@tis/schema'
import { HISTORY_QUERY } from './issue-history'
import { mergedPointer, PAGE_DESCRIPTION, readErrors } from './openapi-responses'
import { limitDoc } from './query-fields'

// The OpenAPI operations of a team's work on issues: bulk changes, comments and history
// (docs/issues.md).

const ISSUE = '/api/v1/projects/{id}/issues/{issue_id}'
const query = HISTORY_QUERY.extend({ limit: limitDoc })
const op = (o: Omit<ApiOperation, 'tag'>): ApiOperation => ({ ...o, tag: 'reads' })

/** The comment and history operations of the read API. */
export const ISSUE_HISTORY_OPERATIONS: readonly ApiOperation[] = [
  op({
    method: 'patch',
    path: '/api/v1/projects/{id}/issues',
    id: 'updateIssues',
    summary: 'Change many issues at once',
    description: `One \`update\` (status, assignee) to the issues of \`ids\` or found by \`query\`, at most ${MAX_BULK_ISSUES.toLocaleString('en-US')}, all or nothing, each change an entry of its issue's activity (docs/issues.md#bulk-changes).`,
    body: issueBulkUpdateSchema,
    responses: {
      200: {
        description: 'How many issues were matched and changed.',
        body: issueBulkAnswerSchema,
      },
      ...readErrors(400, 401, 404, 422),
    },
  }),
  op({
    method: 'post',
    path: '/api/v1/projects/{id}/issues/merge',
    id: 'mergeIssues',
    summary: 'Merge issues into one',
    description: `One of \`issue_ids\` (\`into\`, else the one with the most events) keeps its id and takes in the others: their counts, users, events, comments and history, and every later event of their fingerprints. Their ids then answer with a pointer to it (301 or 308). A \`merge\` entry of its activity names them. At most ${MAX_MERGE_ISSUES} issues; all or nothing (docs/issues.md#merging-issues).`,
    body: issueMergeSchema,
    responses: {
      200: {
        description: 'The kept issue, and the ids merged into it now.',
        body: issueMergeAnswerSchema,
      },
      ...readErrors(400, 401, 404, 422),
    },
  }),
  op({
    method: 'get',
    path: `${ISSUE}/comments`,
    id: 'listIssueComments',
    summary: "List an issue's comments, oldest first",
    query,
    responses: {
      200: { description: PAGE_DESCRIPTION, body: issueCommentPageSchema },
      ...mergedPointer('GET'),
      ...readErrors(401, 404, 422),
    },
  }),
  op({
    method: 'post',
    path: `${ISSUE}/comments`,
    id: 'createIssueComment',
    summary: 'Comment on an issue',
    description:
      "Anyone who may see the project may comment. The body is markdown; the dashboard renders it without HTML. The comment is an entry of the issue's activity.",
    body: issueCommentCreateSchema,
    responses: {
      201: { description: 'The comment.', body: issueCommentAnswerSchema },
      ...mergedPointer('write'),
      ...readErrors(400, 401, 404, 422),
    },
  }),
  op({
    method: 'delete',
    path: `${ISSUE}/comments/{comment_id}`,
    id: 'deleteIssueComment',
    summary: 'Delete a comment',
    description:
      "By its author, the project's owner or an administrator; the deletion is an entry of the issue's activity.",
    responses: {
      204: { description: 'Deleted.' },
      ...mergedPointer('write'),
      ...readErrors(401, 404),
      403: {
        description: "The user may see the project but is not the comment's author or its owner.",
        body: errorBodySchema,
      },
    },
  }),
  op({
    method: 'get',
    path: `${ISSUE}/activity`,
    id: 'listIssueActivity',
    summary: "List an issue's history, oldest first",
    description:
      'Every change made through the API or the dashboard: status, assignee, a comment added or deleted, with who and when.',
    query,
    responses: {
      200: { description: PAGE_DESCRIPTION, body: issueActivityPageSchema },
      ...mergedPointer('GET'),
      ...readErrors(401, 404, 422),
    },
  }),
]
