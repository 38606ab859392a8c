import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type autocannon from 'autocannon'
import { createAlertRules, startAlertSink } from './alert-rules'
import { type LoadOptions, load, meters } from './ingest-load'
import { type Row, row } from './ingest-report'
import { createProjectWithKey } from './management-client'
import { type RunningServer, startNode } from './processes'
import { caughtUp } from './projection-lag'
import { peakRssMiB } from './results'

// The servers the ingest bench measures: the tis server (built, apps/server/dist), the naive
// INSERT-per-request server and the no-op Hono handler.

/** The bootstrap administrator's token of every tis server the bench starts. */
export const ADMIN_TOKEN = `tis_user_${'b'.repeat(48)}`
const root = fileURLToPath(new URL('../../..', import.meta.url))
/** The built tis server. */
export const SERVER_MAIN = join(root, 'apps/server/dist/main.js')
/** The no-op Hono handler (the baseline). */
export const NOOP_MAIN = fileURLToPath(new URL('./noop-server.ts', import.meta.url))
const naiveMain = fileURLToPath(new URL('./naive-server.ts', import.meta.url))

/** The environment of every tis server: the bench administrator, a rate limit far above the load. */
export const serverEnv = {
  SERVICE_BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
  SERVICE_ADMIN_EMAILS: 'bench@localhost',
  SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '1000000000',
  SERVICE_LOG_LEVEL: 'warn',
}

/** One measured run of the tis server. */
export interface TisRun {
  row: Row
  lost: number
  result: autocannon.Result
  rssMiB: number | null
  /** Time the projection took to catch up after the load stopped, in ms. */
  catchUpMs: number
}

/**
 * Starts a tis server with `env`, loads it, waits for the projection, then counts what was
 * stored (`countRows`) to find acknowledged events that went missing.
 */
export async function measureTis(
  name: string,
  env: Record<string, string>,
  countRows: (projectId: string, server: RunningServer) => Promise<number>,
  baseline: number,
  options: LoadOptions & { readonly alertRules?: boolean } = {},
  postgresPids: (() => number[]) | null = null,
): Promise<TisRun> {
  const sink = options.alertRules ? await startAlertSink() : null
  const alertEnv = sink ? { SERVICE_ALERTS_ALLOW_PRIVATE_TARGETS: 'true' } : {}
  const server = await startNode([SERVER_MAIN], { ...serverEnv, ...alertEnv, ...env })
  try {
    const { token, projectId } = await createProjectWithKey(server.url, ADMIN_TOKEN)
    if (sink) await createAlertRules(server.url, ADMIN_TOKEN, projectId, sink.url)
    const result = await load(
      server.url,
      { authorization: `Bearer ${token}` },
      { ...options, meters: meters(server.child.pid, postgresPids) },
    )
    const catchUpMs = await caughtUp(server.url)
    const rssMiB = peakRssMiB(server.child.pid)
    const stored = await countRows(projectId, server)
    // Every 201 of the warm-up and the measured run must be projected (events and issues).
    return {
      row: row(name, result, baseline),
      lost: Math.max(0, result['2xx'] - stored),
      result,
      rssMiB,
      catchUpMs,
    }
  } finally {
    await server.stop()
    await sink?.close()
  }
}

/** The naive insert-per-request server on PostgreSQL (`DATABASE_URL`) or PGlite. */
export async function measureNaive(
  name: string,
  env: Record<string, string>,
  baseline: number,
  postgresPids: (() => number[]) | null = null,
) {
  const naive = await startNode(['--import', 'tsx', naiveMain], env)
  try {
    const result = await load(naive.url, {}, { meters: meters(naive.child.pid, postgresPids) })
    return { row: row(name, result, baseline), result }
  } finally {
    await naive.stop()
  }
}
