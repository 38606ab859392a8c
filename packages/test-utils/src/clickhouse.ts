import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

/** A throwaway ClickHouse server for tests, supervised by a child process. */
export interface TestClickHouse {
  /** HTTP interface, e.g. `http://127.0.0.1:41234`. */
  readonly url: string
  /** Stops the server with SIGTERM; its ports and data directory stay for {@link start}. */
  stop(): Promise<void>
  /** Starts it again on the same ports and data directory; resolves once it answers ping. */
  start(): Promise<void>
  /** Kills the server and deletes its data directory. */
  destroy(): Promise<void>
}

/** How to get the ClickHouse suites to run when the server binary is missing. */
export const CLICKHOUSE_HINT =
  'install ClickHouse (`apt-get install clickhouse-server clickhouse-client`) or run `bash .ci/run`'

const CONFIG = '/etc/clickhouse-server/config.xml'

/** Path of the `clickhouse-server` binary (`CLICKHOUSE_SERVER_BIN`, PATH, /usr/sbin, /usr/bin). */
export function findClickHouseServer(): string | undefined {
  const explicit = process.env['CLICKHOUSE_SERVER_BIN']
  if (explicit) return existsSync(explicit) ? explicit : undefined
  if (!existsSync(CONFIG)) return undefined
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter), '/usr/sbin', '/usr/bin']
  return dirs.map((dir) => join(dir, 'clickhouse-server')).find((path) => existsSync(path))
}

/**
 * Starts `clickhouse-server` (the Debian 18.16 package in CI) on free ports with a temporary
 * data directory. A supervisor child (`clickhouse-server-process.js`) owns the server: if this
 * process dies, the supervisor sees its stdin close and kills the server all the same.
 */
export async function startTestClickHouse(
  binary = findClickHouseServer(),
): Promise<TestClickHouse> {
  if (!binary) throw new Error(`clickhouse-server not found: ${CLICKHOUSE_HINT}`)
  const script = fileURLToPath(new URL('./clickhouse-server-process.js', import.meta.url))
  const child = spawn(process.execPath, [script, binary, CONFIG], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()

  async function command(name: 'start' | 'stop'): Promise<Record<string, unknown>> {
    child.stdin.write(`${name}\n`)
    const next = await Promise.race([lines.next(), exited.then(() => ({ done: true, value: '' }))])
    if (next.done) throw new Error(`the ClickHouse supervisor exited during ${name}`)
    const reply = JSON.parse(String(next.value)) as Record<string, unknown>
    if (typeof reply['error'] === 'string') throw new Error(reply['error'])
    return reply
  }

  async function destroy(): Promise<void> {
    if (child.exitCode !== null) return
    child.stdin.end()
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    await exited
    clearTimeout(timer)
  }

  try {
    const { url } = await command('start')
    return {
      url: String(url),
      stop: async () => void (await command('stop')),
      start: async () => void (await command('start')),
      destroy,
    }
  } catch (error) {
    await destroy()
    throw error
  }
}
