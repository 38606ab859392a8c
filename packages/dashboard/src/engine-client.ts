import type { Engine, EngineResponse, ManagementOperation, UserRecord } from '@tis/ingest'

/**
 * The parts of the engine (`createEngine` of @tis/ingest) the dashboard calls, in process: the
 * management, read, source-settings, account, alerts and source-map APIs.
 */
export type DashboardEngine = Pick<
  Engine,
  'management' | 'reads' | 'sourceSettings' | 'account' | 'alerts' | 'sourceMaps'
>

/** What one engine call takes besides the signed-in user. */
export interface CallInput {
  readonly params?: Readonly<Record<string, string>>
  readonly query?: Readonly<Record<string, string | undefined>>
  readonly body?: unknown
}

/** Calls one engine operation as the signed-in user. */
export type Call = (operation: ManagementOperation, input?: CallInput) => Promise<EngineResponse>

/** An engine answer the page cannot show: 404s, refusals, validation errors. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
    this.name = 'PageError'
  }

  /** Name-based, so it survives duplicate installs. */
  static is(error: unknown): error is PageError {
    return error instanceof Error && error.name === 'PageError'
  }
}

/**
 * A caller bound to the user of a resolved session: the engine's own operations, in process, with
 * the user already authenticated (no access token, no HTTP round trip). `origin` is the page's
 * (`https://tis.example.com`), passed on as `Host` and `X-Forwarded-Proto`.
 */
export function createCall(user: UserRecord, behind?: Behind, origin?: string): Call {
  // The page's own origin: what a project's DSN names when the server has no public URL.
  const url = origin ? new URL(origin) : null
  const headers = url
    ? { host: url.host, 'x-forwarded-proto': url.protocol === 'https:' ? 'https' : 'http' }
    : {}
  return async (operation, input = {}) => {
    const response = await operation({
      headers,
      user,
      ...(input.params ? { params: input.params } : {}),
      ...(input.query ? { query: input.query } : {}),
      ...(input.body === undefined ? {} : { body: input.body }),
    })
    if (behind) noteLag(behind, response)
    return response
  }
}

/**
 * How far behind the projection the data of this page may be: set when an engine answer came
 * before the projection caught up (the read barrier's `X-Tis-Projection-Lag` headers).
 */
export interface Behind {
  lag: { readonly records: number; readonly seconds: number } | null
}

/** Keeps the largest lag an answer reported. */
function noteLag(behind: Behind, response: EngineResponse) {
  const seconds = Number(response.headers['X-Tis-Projection-Lag'])
  const records = Number(response.headers['X-Tis-Projection-Lag-Records'])
  if (!Number.isFinite(seconds) || response.headers['X-Tis-Projection-Lag'] === undefined) return
  if (!behind.lag || seconds > behind.lag.seconds) {
    behind.lag = { records: Number.isFinite(records) ? records : 0, seconds }
  }
}

/** The messages of an engine error body (`{error}` or `{errors: []}`). */
export function errorMessages(response: EngineResponse): string[] {
  const body = response.body as { error?: unknown; errors?: unknown } | null
  if (Array.isArray(body?.errors)) return body.errors.map(String)
  if (typeof body?.error === 'string') return [body.error]
  return [`request failed (${response.status})`]
}

/**
 * The body of a 2xx answer, else a {@link PageError} with the engine's message. A pointer to a
 * merged issue (301, 308) that a page did not follow itself is a 404 saying where it went.
 */
export function ok<T>(response: EngineResponse): T {
  if (response.status >= 200 && response.status < 300) return response.body as T
  const status = response.status >= 300 && response.status < 400 ? 404 : response.status
  throw new PageError(status, errorMessages(response).join('; '))
}
