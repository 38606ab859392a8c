import { load } from './ingest-load'
import { latency } from './ingest-report'
import { ADMIN_TOKEN, SERVER_MAIN, serverEnv } from './ingest-servers'
import { createProjectWithKey } from './management-client'
import { startNode } from './processes'
import { projectionLag } from './projection-lag'
import { quantile } from './quantile'
import type { Figure } from './results'

/** Seconds of the projection-lag run at half the peak rate. */
const LAG_SECONDS = Number(process.env['BENCH_LAG_SECONDS'] ?? 120)

/**
 * Single events at `rate` req/s (half the measured peak) for LAG_SECONDS: the projection lag
 * (`GET /health/ready`: age of the oldest record not projected yet) sampled twice a second; its
 * p99, and the first and last quarter's means (a growing lag is a projection that falls behind).
 */
export async function measureLag(
  databaseUrl: string,
  rate: number,
  summary: string[],
): Promise<Figure[]> {
  const server = await startNode([SERVER_MAIN], { ...serverEnv, DATABASE_URL: databaseUrl })
  try {
    const { token } = await createProjectWithKey(server.url, ADMIN_TOKEN)
    const samples: number[] = []
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        samples.push((await projectionLag(server.url)).seconds)
        await new Promise((r) => setTimeout(r, 500))
      }
    })()
    const result = await load(
      server.url,
      { authorization: `Bearer ${token}` },
      { rate: Math.round(rate), duration: LAG_SECONDS, warmUp: false },
    )
    sampling = false
    await sampler
    const sorted = [...samples].sort((a, b) => a - b)
    const p99 = quantile(sorted, 0.99) || 0
    const quarter = Math.max(1, Math.floor(samples.length / 4))
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)
    const first = mean(samples.slice(0, quarter))
    const last = mean(samples.slice(-quarter))
    summary.push(
      `projection lag at ${Math.round(result.requests.average)} req/s for ${LAG_SECONDS} s: p99 ${p99.toFixed(2)} s, max ${(sorted.at(-1) ?? 0).toFixed(2)} s, first quarter mean ${first.toFixed(2)} s, last quarter ${last.toFixed(2)} s`,
    )
    return [
      {
        what: `projection lag p99 at half the peak rate (${Math.round(result.requests.average)} req/s, ${LAG_SECONDS} s), PostgreSQL`,
        value: Math.round(p99 * 1000) / 1000,
        unit: 's',
        note: `first quarter mean ${first.toFixed(2)} s, last quarter ${last.toFixed(2)} s; ingest ${latency(result)}`,
      },
    ]
  } finally {
    await server.stop()
  }
}
