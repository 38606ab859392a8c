/** A failed management API call: its status and the API's error message(s). */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  /** HTTP status, or 0 when the server could not be reached. */
  readonly status: number
  /** The messages to show: `error`, or each of `errors`. */
  readonly messages: readonly string[]

  constructor(status: number, messages: readonly string[]) {
    super(messages.join('; '))
    this.status = status
    this.messages = messages
  }
}

/** A minimal client of the management API. */
export interface ApiClient {
  /** The server's base URL, without a trailing slash. */
  readonly baseUrl: string
  /**
   * Sends one request, a `FormData` body as multipart and any other as JSON; resolves the
   * parsed JSON body (`null` for an empty one) on 2xx.
   * @throws {ApiError} on any other status, or when the server is unreachable
   */
  request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<unknown>
}

/** Options of {@link createApiClient}. */
export interface ApiClientOptions {
  readonly baseUrl: string
  /** A user access token (`tis_user_…`), sent as `Authorization: Bearer`. */
  readonly token: string | undefined
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch
}

/** The error message(s) of an error body: `{error}`, `{errors: [...]}` or `{detail}` (/api/0/). */
function errorMessages(status: number, text: string): string[] {
  try {
    const body = JSON.parse(text) as { error?: unknown; errors?: unknown; detail?: unknown }
    if (Array.isArray(body.errors) && body.errors.length > 0) return body.errors.map(String)
    if (typeof body.error === 'string') return [body.error]
    if (typeof body.detail === 'string') return [body.detail]
  } catch {
    // Not JSON (a proxy's error page, say): fall through to the status.
  }
  return [`the server answered HTTP ${status}`]
}

/** Creates a client that talks JSON to `baseUrl` with the given access token. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const doFetch = options.fetch ?? globalThis.fetch
  return {
    baseUrl,
    async request(method, path, body) {
      const headers: Record<string, string> = { Accept: 'application/json' }
      if (options.token) headers['Authorization'] = `Bearer ${options.token}`
      // fetch writes the multipart Content-Type, boundary included, for a FormData body.
      const form = body instanceof FormData
      if (body !== undefined && !form) headers['Content-Type'] = 'application/json'
      let response: Response
      try {
        response = await doFetch(`${baseUrl}${path}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body: form ? body : JSON.stringify(body) }),
        })
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code
        throw new ApiError(0, [
          `cannot reach ${baseUrl}${cause ? ` (${cause})` : ''}; is the server running? Set --url or TIS_URL.`,
        ])
      }
      const text = await response.text()
      if (!response.ok) throw new ApiError(response.status, errorMessages(response.status, text))
      return text === '' ? null : JSON.parse(text)
    },
  }
}
