import { BATCH_SIZE, DURATION, loadBatches } from './ingest-load'
import type { Row } from './ingest-report'
import { ADMIN_TOKEN, SERVER_MAIN, serverEnv } from './ingest-servers'
import { createProjectWithKey } from './management-client'
import { startNode } from './processes'
import { caughtUp } from './projection-lag'
import type { Figure } from './results'

/**
 * Batch ingest, BATCH_SIZE envelopes per request, every one a new row: rows/s acknowledged,
 * and rows/s projected from the first request until the projection caught up.
 */
export async function measureBatches(
  databaseUrl: string,
  countEvents: (projectId: string) => Promise<number>,
  notes: string[],
  rows: Row[],
): Promise<Figure[]> {
  const server = await startNode([SERVER_MAIN], {
    ...serverEnv,
    DATABASE_URL: databaseUrl,
    SERVICE_PUBLIC_API_RATE_LIMIT_STORE: 'none',
  })
  try {
    const { token, projectId } = await createProjectWithKey(server.url, ADMIN_TOKEN)
    const started = performance.now()
    const batches = await loadBatches(server.url, { authorization: `Bearer ${token}` })
    const loadEnded = performance.now()
    const catchUpMs = await caughtUp(server.url)
    const projectedMs = loadEnded - started + catchUpMs
    const rowsPerSecond = Math.round((batches['2xx'] * BATCH_SIZE) / DURATION)
    const stored = await countEvents(projectId)
    const projectedPerSecond = Math.round(stored / (projectedMs / 1000))
    notes.push(
      `PostgreSQL batches: ${Math.max(0, batches['2xx'] * BATCH_SIZE - stored)} acknowledged rows of the measured run missing (stored ${stored} incl. warm-up); projection caught up ${Math.round(catchUpMs)} ms after the load`,
    )
    rows.push({
      handler: `tis batch ingest (${BATCH_SIZE}/request), PostgreSQL`,
      'req/s': Math.round(batches.requests.average),
      'p50 ms': batches.latency.p50,
      'p99 ms': batches.latency.p99,
      '2xx': batches['2xx'],
      errors: batches.errors + batches.non2xx + batches.timeouts,
      'vs no-op': `${rowsPerSecond} rows/s`,
    })
    return [
      {
        what: `batch ingest rows/s acknowledged (${BATCH_SIZE} per request), PostgreSQL`,
        value: rowsPerSecond,
        unit: 'rows/s',
        note: `p50 ${batches.latency.p50} ms, p99 ${batches.latency.p99} ms per batch`,
      },
      {
        what: 'projection rows/s behind batch ingest, PostgreSQL',
        value: projectedPerSecond,
        unit: 'rows/s',
        baseline: 'batch rows/s acknowledged',
        baselineValue: rowsPerSecond,
        note: `${stored} rows projected in ${(projectedMs / 1000).toFixed(1)} s (caught up ${(catchUpMs / 1000).toFixed(1)} s after the load)`,
      },
    ]
  } finally {
    await server.stop()
  }
}
