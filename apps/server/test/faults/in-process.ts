// A real listening server on in-memory PGlite for the fault tests, with its log lines kept so a
// test can check that nothing unexpected (a 500) was logged, and raw HTTP/1.1 over a socket for
// clients that misbehave in ways fetch cannot (stop mid-body, trickle bytes).
import { connect, type Socket } from 'node:net'
import { PGlite } from '@electric-sql/pglite'
import { createPgliteStore } from '@tis/storage-postgres'
import { createClient, SUITE_ENV } from '@tis/test-utils/server'
import { loadConfig } from '../../src/config'
import { createLogger } from '../../src/logger'
import { createServer, type TisServer } from '../../src/server'

/** A server for one fault test. */
export interface FaultServer {
  readonly url: string
  readonly port: number
  readonly server: TisServer
  readonly db: PGlite
  /** Every log line the server wrote (info and above). */
  readonly logs: Array<Record<string, unknown>>
  /** A project API key to ingest with. */
  readonly key: string
  readonly projectId: string
  close(): Promise<void>
}

/** Starts a server on in-memory PGlite with `env` over the suites' configuration. */
export async function startFaultServer(env: Record<string, string> = {}): Promise<FaultServer> {
  const db = await PGlite.create()
  const store = createPgliteStore(db)
  await store.migrate()
  const logs: Array<Record<string, unknown>> = []
  const config = loadConfig({
    ...SUITE_ENV,
    SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '1000000',
    SERVICE_PUBLIC_API_AUTH_FAILURE_RATE_LIMIT_REQUESTS: '1000000',
    ...env,
  })
  const server = await createServer(config, {
    store,
    logger: createLogger({ level: 'info', write: (line) => logs.push(JSON.parse(line)) }),
    shutdownTimeoutMs: 1_000,
  })
  const { url, port } = await server.listen()
  const project = await createClient(url).projectWithKey()
  return {
    url,
    port,
    server,
    db,
    logs,
    key: project.key,
    projectId: project.projectId,
    async close() {
      await server.close()
      await db.close()
    },
  }
}

/** The head of a POST with a JSON or NDJSON body of `length` bytes, authenticated with `key`. */
export function requestHead(path: string, key: string, length: number): string {
  const type = path.endsWith('/batch') ? 'application/x-ndjson' : 'application/json'
  return (
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: ${key}\r\n` +
    `Content-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`
  )
}

/** A raw TCP connection to the server and when (if) the server closed it. */
export interface RawConnection {
  readonly socket: Socket
  /** Everything the server sent. */
  readonly received: () => string
  /** Resolves with the time (performance.now()) the connection closed. */
  readonly closed: Promise<number>
}

/** Opens a raw connection to `port` on loopback; resolves once it is connected. */
export function openRaw(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let data = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      data += chunk
    })
    const closed = new Promise<number>((r) => socket.once('close', () => r(performance.now())))
    socket.on('error', () => {}) // resets are expected; `closed` reports the end
    socket.once('connect', () => resolve({ socket, received: () => data, closed }))
    socket.once('error', reject)
  })
}

/** Rows of the project's events whose message starts with `prefix`. */
export async function storedMessages(fault: FaultServer, prefix: string): Promise<string[]> {
  await fault.server.engine.settled()
  const { rows } = await fault.db.query<{ message: string }>(
    'select message from events where project_id = $1 and message like $2',
    [fault.projectId, `${prefix}%`],
  )
  return rows.map((r) => r.message)
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))
