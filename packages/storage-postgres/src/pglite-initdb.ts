import { spawn } from 'node:child_process'
import { access } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'

// Run by `node -e` with PGlite's CommonJS entry and the directory: creates the database there and
// exits. Its output is the error, if any.
const INITDB = `
const { PGlite } = require(process.argv[1])
PGlite.create({ dataDir: process.argv[2] })
  .then((db) => db.close())
  .then(() => process.exit(0), (error) => {
    process.stderr.write(String(error && error.message ? error.message : error))
    process.exit(1)
  })`

/**
 * Creates the PGlite database of an empty `directory` in a short-lived child process, so that
 * the server never holds what creating it takes: PGlite runs `initdb` in a WebAssembly instance
 * and file bundle of its own, and in process they stayed resident until a full garbage collection
 * that an idle server may never run (a first start idled at 479–515 MB against 366 MB reopened;
 * docs/performance.md, "Pace"). Does nothing when the directory holds a database.
 */
export async function initialiseApart(directory: string): Promise<void> {
  const exists = await access(join(directory, 'PG_VERSION')).then(
    () => true,
    () => false,
  )
  if (exists) return
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', INITDB, entry, directory], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2_000)
    })
    child.once('error', reject)
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `could not create the embedded database in ${directory}: ${stderr || `initdb exited (${signal ?? code})`}`,
            ),
          ),
    )
  })
}
