import { randomBytes } from 'node:crypto'
import { ADMIN_TOKEN } from './harness'
import { checkServerResponse } from './response-check'

/** A response as the tests look at it. */
export interface Reply {
  readonly status: number
  readonly headers: Headers
  /** The raw body text. */
  readonly text: string
  /** The parsed JSON body; `null` when the body is empty. */
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary response fields
  readonly body: any
}

/** Options of one request. */
export interface CallOptions {
  /** A JSON value to send (serialised), or… */
  readonly json?: unknown
  /** …the exact body text. */
  readonly text?: string
  /** `Authorization: Bearer <token>`. */
  readonly token?: string
  /** `X-Api-Key: <key>`. */
  readonly apiKey?: string
  /** The client IP the trusted proxy reports; a fresh one per request by default. */
  readonly ip?: string
  readonly headers?: Record<string, string>
  /** `manual` answers with a redirect itself rather than following it. @default 'follow' */
  readonly redirect?: 'follow' | 'manual'
}

let ipCounter = 0
/** A client IP no other request has used (10.0.0.0/8). */
export const freshIp = () => {
  ipCounter += 1
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`
}

/** A name no other test uses. */
export const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`

/**
 * Sends one request over HTTP to the server at `baseUrl`. The answer of a read or management
 * operation is checked against the server's OpenAPI document ({@link checkServerResponse}).
 */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = {
    'X-Forwarded-For': options.ip ?? freshIp(),
    ...options.headers,
  }
  if (options.token !== undefined) headers['Authorization'] = `Bearer ${options.token}`
  if (options.apiKey !== undefined) headers['X-Api-Key'] = options.apiKey
  let body: string | undefined = options.text
  if (options.json !== undefined) body = JSON.stringify(options.json)
  if (body !== undefined) headers['Content-Type'] ??= 'application/json'
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    redirect: options.redirect ?? 'follow',
    ...(body === undefined ? {} : { body }),
  })
  const text = await response.text()
  const reply = {
    status: response.status,
    headers: response.headers,
    text,
    body: text === '' ? null : JSON.parse(text),
  }
  checkServerResponse({ method, path, status: response.status, text })
  return reply
}

/** Management and ingestion shortcuts against one server. */
export function createClient(baseUrl: string) {
  const api = (method: string, path: string, options?: CallOptions) =>
    call(baseUrl, method, path, options)

  async function expectStatus(reply: Promise<Reply>, status: number): Promise<Reply> {
    const r = await reply
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${r.text}`)
    return r
  }

  return {
    api,
    /** Creates a user as the administrator; resolves its id and access token. */
    async createUser(email = `${unique('user')}@tis.test`) {
      const r = await expectStatus(
        api('POST', '/api/v1/users', { token: ADMIN_TOKEN, json: { user: { email } } }),
        201,
      )
      return { id: r.body.user.id as string, email, token: r.body.access_token as string }
    },
    /** Creates a project owned by `token`'s user (the administrator by default). */
    async createProject(token = ADMIN_TOKEN, kind = 'node') {
      const project = { name: unique('project'), integration_kind: kind }
      const r = await expectStatus(
        api('POST', '/api/v1/projects', { token, json: { project } }),
        201,
      )
      return r.body.project as { id: string; name: string; status: string }
    },
    /** Creates an API key for a project; resolves its id and token. */
    async createKey(projectId: string, token = ADMIN_TOKEN) {
      const r = await expectStatus(
        api('POST', `/api/v1/projects/${projectId}/api_keys`, { token }),
        201,
      )
      return { id: r.body.api_key.id as string, token: r.body.token as string }
    },
    /** A fresh project with one key: what most ingestion tests start from. */
    async projectWithKey() {
      const project = await this.createProject()
      const key = await this.createKey(project.id)
      return { projectId: project.id, key: key.token, keyId: key.id }
    },
    /** Sends a JSON body to an ingestion endpoint with a project key. */
    ingest(path: string, key: string, json: unknown, options: CallOptions = {}) {
      return api('POST', path, { apiKey: key, json, ...options })
    },
  }
}

/** The client of {@link createClient}. */
export type Client = ReturnType<typeof createClient>
