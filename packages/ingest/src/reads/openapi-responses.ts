import {
  type ApiResponse,
  errorBodySchema,
  issueMergedSchema,
  validationErrorBodySchema,
} from '@tis/schema'

// The error responses of the read API's operations, with the Error and ValidationErrors bodies
// of `@tis/schema`.

const ERRORS: Record<number, ApiResponse> = {
  400: {
    description:
      'The body is missing, not valid JSON or not a JSON object, or its `issue` envelope is missing, null or empty.',
    body: errorBodySchema,
  },
  401: { description: 'The access token is missing or unknown.', body: errorBodySchema },
  404: {
    description: 'No such project or issue, or the user may not see it.',
    body: errorBodySchema,
  },
  422: {
    description:
      'A query parameter or the body failed validation; each message names its parameter.',
    body: validationErrorBodySchema,
  },
}

/** 400 of the lists that take `query=`: the search syntax's message names the term. */
export const SEARCH_REJECTED: ApiResponse = {
  description:
    '`query` has a term the search syntax does not know or cannot use (an unknown key, a value the key does not take, an unclosed quote); the message names it (docs/issues.md#search-syntax).',
  body: errorBodySchema,
}

/** The read API's error responses of `statuses`, keyed by status code. */
export function readErrors(...statuses: (keyof typeof ERRORS)[]): Record<number, ApiResponse> {
  return Object.fromEntries(statuses.map((s) => [s, ERRORS[s] as ApiResponse]))
}

/** 404 of the reads of one monitor. */
export const MONITOR_NOT_FOUND: ApiResponse = {
  description: 'No such project or monitor (of this project), or the user may not see the project.',
  body: errorBodySchema,
}

/** 404 of `GET …/traces/:trace_id`. */
export const TRACE_NOT_FOUND: ApiResponse = {
  description:
    'No such project, or the user may not see it, or the trace has neither spans nor events.',
  body: errorBodySchema,
}

/** 404 of a release read. */
export const RELEASE_NOT_FOUND: ApiResponse = {
  description:
    'No such project, or the user may not see it, or no session, event or deployment ever named the version.',
  body: errorBodySchema,
}

/** 200 of a list: one page. */
export const PAGE_DESCRIPTION = 'One page, newest first; `next_cursor` is null on the last page.'

const LOCATION = {
  location: {
    description: 'The same path and query, naming the issue it was merged into.',
    schema: { type: 'string' },
  },
}

/**
 * The pointer a merged issue's id answers with (docs/issues.md#merging-issues): `301` for the
 * reads, `308` (method and body kept) for the writes.
 */
export function mergedPointer(method: 'GET' | 'write'): Record<number, ApiResponse> {
  return {
    [method === 'GET' ? 301 : 308]: {
      description:
        'The issue named was merged into another: `Location` names the same request for it, and the body its id.',
      body: issueMergedSchema,
      headers: LOCATION,
    },
  }
}
