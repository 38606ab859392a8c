import autocannon from 'autocannon'

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

/** A probe's figures. autocannon records whole milliseconds. */
export interface ProbeResult {
  readonly endpoint: string
  /** A string (`>3000`) when no request was answered within the run. */
  readonly 'p50 ms': number | string
  readonly 'p99 ms': number | string
  readonly 'req/s': number
  readonly 'p50 < 50 ms': string
  readonly 'non-2xx': number
}

/** The bound on every read endpoint's p50. */
export const TARGET_MS = 50

/** Runs `probe` against `url` with autocannon; the warm-up's figures are dropped. */
export async function measure(url: string, probe: Probe, o: LoadOptions): Promise<ProbeResult> {
  const run = (duration: number) =>
    autocannon({
      url: `${url}${probe.path}`,
      method: probe.method ?? 'GET',
      connections: o.connections,
      duration,
      headers: { ...o.headers, ...(probe.body ? { 'content-type': 'application/json' } : {}) },
      ...(probe.body ? { body: probe.body } : {}),
    })
  if (o.warmup > 0) await run(o.warmup)
  const r = await run(o.duration)
  // No answer within the run: every request took longer than the run itself.
  if (r.requests.total === 0) {
    return {
      endpoint: probe.name,
      'p50 ms': `>${o.duration * 1000}`,
      'p99 ms': `>${o.duration * 1000}`,
      'req/s': 0,
      'p50 < 50 ms': 'OVER',
      'non-2xx': 0,
    }
  }
  return {
    endpoint: probe.name,
    'p50 ms': r.latency.p50,
    'p99 ms': r.latency.p99,
    'req/s': Math.round(r.requests.average),
    'p50 < 50 ms': r.latency.p50 < TARGET_MS ? 'OK' : 'OVER',
    'non-2xx': r.non2xx + r.errors + r.timeouts,
  }
}
