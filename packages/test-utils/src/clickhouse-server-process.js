// @ts-check
// Supervisor of a throwaway ClickHouse server (see clickhouse-server.ts). It runs apart from the
// test runner so the server dies with the tests however they end: when this process's stdin
// closes (the parent stopped it, or died), it kills the server and deletes its data directory.
// Protocol: one JSON line per command read from stdin — `start` → `{"url"}` or `{"error"}`,
// `stop` (SIGTERM, same ports and data directory kept for the next `start`) → `{"stopped":true}`.
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

const binary = process.argv[2] ?? 'clickhouse-server'
const config = process.argv[3] ?? '/etc/clickhouse-server/config.xml'
const reply = (/** @type {object} */ message) =>
  process.stdout.write(`${JSON.stringify(message)}\n`)

/** @returns {Promise<number>} a TCP port nothing listens on right now */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      )
    })
  })
}

const dir = await mkdtemp(join(tmpdir(), 'tis-test-clickhouse-'))
const [httpPort, tcpPort, interserverPort] = await Promise.all([freePort(), freePort(), freePort()])
const url = `http://127.0.0.1:${httpPort}`
/** @type {import('node:child_process').ChildProcess | undefined} */
let server
let stderr = ''

async function ping() {
  try {
    return (await fetch(`${url}/ping`)).ok
  } catch {
    return false
  }
}

async function start() {
  if (server && server.exitCode === null && (await ping())) return reply({ url })
  stderr = ''
  server = spawn(
    binary,
    [
      `--config-file=${config}`,
      '--',
      `--path=${dir}/`,
      `--tmp_path=${dir}/tmp/`,
      `--user_files_path=${dir}/uf/`,
      `--format_schema_path=${dir}/fs/`,
      `--http_port=${httpPort}`,
      `--tcp_port=${tcpPort}`,
      `--interserver_http_port=${interserverPort}`,
      `--logger.log=${dir}/server.log`,
      `--logger.errorlog=${dir}/error.log`,
    ],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  )
  server.stderr?.on('data', (chunk) => {
    stderr = (stderr + String(chunk)).slice(-4_000)
  })
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (server.exitCode !== null) break
    if (await ping()) return reply({ url })
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  reply({
    error: `clickhouse-server did not become ready (exit code ${server.exitCode})\n${stderr}`,
  })
}

/** @param {NodeJS.Signals} signal */
async function stop(signal) {
  const current = server
  if (!current || current.exitCode !== null || current.signalCode !== null) return
  const exited = new Promise((resolve) => current.once('exit', resolve))
  current.kill(signal)
  const timer = setTimeout(() => current.kill('SIGKILL'), 20_000)
  await exited
  clearTimeout(timer)
}

let closing = false
async function shutdown() {
  if (closing) return
  closing = true
  await stop('SIGKILL')
  await rm(dir, { recursive: true, force: true })
  process.exit(0)
}

process.on('SIGTERM', () => void shutdown())
process.on('SIGINT', () => void shutdown())
const commands = createInterface({ input: process.stdin })
commands.on('close', () => void shutdown())
// Commands run one at a time, in order.
let queue = Promise.resolve()
commands.on('line', (line) => {
  queue = queue.then(async () => {
    if (line === 'start') await start()
    else if (line === 'stop') {
      await stop('SIGTERM')
      reply({ stopped: true })
    } else reply({ error: `unknown command ${line}` })
  })
})
