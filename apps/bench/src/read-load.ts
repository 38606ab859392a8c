import autocannon from 'autocannon'
import { quantile } from './quantile'

/** One request the benchmark repeats. */
export interface Probe {
  readonly name: string
  readonly path: string
  readonly method?: 'GET' | 'PATCH'
  readonly body?: string
}

/** Load settings shared by every probe and the baseline. */
export interface LoadOptions {
  readonly connections: number
  /** Seconds measured after a warm-up of {@link LoadOptions.warmup} seconds. */
  readonly duration: number
  readonly warmup: number
  readonly headers: Record<string, string>
}

/**
 * A probe's figures. The percentiles are of every answer's own latency (nearest rank, to 0.1 ms),
 * not of autocannon's histogram, which records whole milliseconds and has no p95.
 */
export interface ProbeResult {
  readonly endpoint: string
  /** A string (`>3000`) when no request was answered within the run. */
  readonly 'p50 ms': number | string
  readonly 'p95 ms': number | string
  readonly 'p99 ms': number | string
  readonly 'req/s': number
  readonly 'p50 < 50 ms': string
  readonly 'non-2xx': number
}

/** The bound on every read endpoint's p50. */
export const TARGET_MS = 50

/** Runs `probe` against `url` with autocannon; the warm-up's figures are dropped. */
export async function measure(url: string, probe: Probe, o: LoadOptions): Promise<ProbeResult> {
  // Each answer's latency (ms, fractional) of the measured run; the warm-up's are not kept.
  const run = (duration: number, latencies?: number[]) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      const options = {
        url: `${url}${probe.path}`,
        method: probe.method ?? 'GET',
        connections: o.connections,
        duration,
        headers: { ...o.headers, ...(probe.body ? { 'content-type': 'application/json' } : {}) },
        ...(probe.body ? { body: probe.body } : {}),
      } as const
      const instance = autocannon(options, (error, result) =>
        error ? reject(error) : resolve(result),
      )
      if (latencies) instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms))
    })
  if (o.warmup > 0) await run(o.warmup)
  const latencies: number[] = []
  const r = await run(o.duration, latencies)
  // No answer within the run: every request took longer than the run itself.
  if (r.requests.total === 0) {
    return {
      endpoint: probe.name,
      'p50 ms': `>${o.duration * 1000}`,
      'p95 ms': `>${o.duration * 1000}`,
      'p99 ms': `>${o.duration * 1000}`,
      'req/s': 0,
      'p50 < 50 ms': 'OVER',
      'non-2xx': 0,
    }
  }
  latencies.sort((a, b) => a - b)
  const at = (q: number) => Math.round(quantile(latencies, q) * 10) / 10
  return {
    endpoint: probe.name,
    'p50 ms': at(0.5),
    'p95 ms': at(0.95),
    'p99 ms': at(0.99),
    'req/s': Math.round(r.requests.average),
    'p50 < 50 ms': at(0.5) < TARGET_MS ? 'OK' : 'OVER',
    'non-2xx': r.non2xx + r.errors + r.timeouts,
  }
}
