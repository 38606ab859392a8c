import { randomUUID } from 'node:crypto'
import {
  ADMIN_TOKEN,
  createClient,
  freshIp,
  type Harness,
  type Reply,
} from '@tis/test-utils/server'

/** Fields of one event. */
export type Fields = Record<string, unknown>

/** A log line with its own `event_id`. */
export const logLine = (message: string, extra: Fields = {}): Fields => ({
  event_type: 'log',
  message,
  event_id: randomUUID(),
  ...extra,
})

/** One NDJSON body from events (each wrapped in `{"event":…}`). */
export const ndjson = (events: Fields[]) =>
  `${events.map((event) => JSON.stringify({ event })).join('\n')}\n`

/** A batch endpoint answer as the tests look at it. */
export interface BatchReply {
  readonly status: number
  readonly headers: Headers
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary answer fields
  readonly body: any
}

/** What {@link batchProject} gives a test. */
export interface BatchProject {
  readonly c: ReturnType<typeof createClient>
  readonly projectId: string
  readonly key: string
  /** Posts raw bytes to the batch endpoint with the key; NDJSON unless `headers` say else. */
  post(body: Uint8Array | string, headers?: Record<string, string>): Promise<BatchReply>
  /** Rows of every table a batch can write to, for this project. */
  counts(): Promise<Record<string, number>>
  /** Sets the project's request cap (per hour) as the administrator. */
  setLimit(requests: number): Promise<Reply>
  /** A read of the project as the administrator, e.g. `get('/events')`. */
  get(path: string): Promise<Reply>
}

/** A fresh project with a key, a poster for the batch endpoint and row counts of the project. */
export async function batchProject(harness: Harness): Promise<BatchProject> {
  const c = createClient(harness.url)
  const { projectId, key } = await c.projectWithKey()
  async function post(body: Uint8Array | string, headers: Record<string, string> = {}) {
    const response = await fetch(`${harness.url}/api/v1/ingest_events/batch`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/x-ndjson',
        'X-Forwarded-For': freshIp(),
        ...headers,
      },
      body,
    })
    const text = await response.text()
    return { status: response.status, headers: response.headers, body: JSON.parse(text) }
  }
  async function counts() {
    const tables = ['events', 'spans', 'issues', 'monitors', 'check_ins', 'deployments']
    const [row] = await harness.query<Record<string, number>>(
      `select ${tables
        .map((t) => `(select count(*)::int from ${t} where project_id = $1) as ${t}`)
        .join(', ')}`,
      [projectId],
    )
    return row!
  }
  const setLimit = (requests: number) =>
    c.api('PUT', `/api/v1/projects/${projectId}/rate_limits`, {
      token: ADMIN_TOKEN,
      json: { rate_limit: { requests, period_seconds: 3600 } },
    })
  const get = (path: string) =>
    c.api('GET', `/api/v1/projects/${projectId}${path}`, { token: ADMIN_TOKEN })
  return { c, projectId, key, post, counts, setLimit, get }
}
