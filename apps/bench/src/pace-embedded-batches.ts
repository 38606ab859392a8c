import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { meters } from './ingest-load'
import { ADMIN_TOKEN, SERVER_MAIN, serverEnv } from './ingest-servers'
import { createProjectWithKey } from './management-client'
import { type BatchRun, runBatches } from './pace-batches'
import { startNode } from './processes'

// Issue 35 asks for the embedded store's batch figures beside PostgreSQL's: the same batches
// (1,000 lines, 4 in flight) against `pnpm start`'s server on PGlite in a fresh directory, with
// its default durability (every commit flushed). PostgreSQL runs inside the server's process
// there, so the server's processor time is the whole cost of a row.

/** One run per number of fingerprints, each on a fresh embedded database. */
export async function measureEmbeddedBatches(
  groups: readonly number[],
): Promise<Array<{ load: string } & BatchRun>> {
  const runs: Array<{ load: string } & BatchRun> = []
  for (const n of groups) {
    const dir = mkdtempSync(join(tmpdir(), 'tis-pace-embedded-batches-'))
    try {
      const server = await startNode([SERVER_MAIN], {
        ...serverEnv,
        SERVICE_DATA_DIR: join(dir, 'data'),
      })
      try {
        const { token } = await createProjectWithKey(server.url, ADMIN_TOKEN, 'embedded')
        const run = await runBatches(
          server.url,
          token,
          n,
          meters(server.child.pid, null),
          async () => {},
        )
        const label = `embedded, ${n.toLocaleString('en-US')} fingerprint${n === 1 ? '' : 's'}`
        runs.push({ load: label, ...run })
      } finally {
        await server.stop()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  return runs
}
