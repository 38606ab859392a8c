import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { load, meters, runCpu } from './ingest-load'
import { ADMIN_TOKEN, SERVER_MAIN, serverEnv } from './ingest-servers'
import { createProjectWithKey } from './management-client'
import { startNode } from './processes'
import { caughtUp } from './projection-lag'
import { peakRssMiB } from './results'

// The embedded store's footprint (issue 35): the server on PGlite in a fresh data directory
// (`pnpm start`'s first run), idle, under the single-event load, and reopened idle; for each
// `shared_buffers` asked for, PGlite's own 128MB being the baseline.

/** Resident set now (VmRSS) of a process, in MiB. */
function rssMiB(pid: number | undefined): number | null {
  if (pid === undefined) return null
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb ? Math.round(Number(kb) / 1024) : null
  } catch {
    return null
  }
}

const settle = () => new Promise((r) => setTimeout(r, 5_000))

/** One row per `shared_buffers` value. */
export async function measureEmbedded(
  sizes: readonly string[],
): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = []
  for (const size of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'tis-pace-embedded-'))
    const env = {
      ...serverEnv,
      SERVICE_DATA_DIR: join(dir, 'data'),
      SERVICE_EMBEDDED_SHARED_BUFFERS: size,
    }
    try {
      const first = await startNode([SERVER_MAIN], env)
      let row: Record<string, unknown> = { shared_buffers: size }
      try {
        await settle()
        row['idle MiB (first start)'] = rssMiB(first.child.pid)
        const { token } = await createProjectWithKey(first.url, ADMIN_TOKEN, 'embedded')
        // VmHWM would report PGlite's first-start initdb; sample the resident set instead.
        let loadedMiB = 0
        const sampler = setInterval(() => {
          loadedMiB = Math.max(loadedMiB, rssMiB(first.child.pid) ?? 0)
        }, 250)
        const r = await load(
          first.url,
          { authorization: `Bearer ${token}` },
          { meters: meters(first.child.pid, null) },
        )
        await caughtUp(first.url)
        clearInterval(sampler)
        await settle()
        row = {
          ...row,
          'req/s': Math.round(r.requests.average),
          'p99 ms': r.latency.p99,
          'µs/req (in process)': runCpu(r).server,
          'max MiB under load': loadedMiB,
          'idle MiB after load': rssMiB(first.child.pid),
          'VmHWM MiB': peakRssMiB(first.child.pid),
        }
      } finally {
        await first.stop()
      }
      const again = await startNode([SERVER_MAIN], env)
      try {
        await settle()
        row['idle MiB (reopened)'] = rssMiB(again.child.pid)
      } finally {
        await again.stop()
      }
      rows.push(row)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  return rows
}
