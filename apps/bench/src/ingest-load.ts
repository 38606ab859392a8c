import { randomUUID } from 'node:crypto'
import autocannon from 'autocannon'
import { BENCH_EVENT_BODY as body } from './bench-event'
import { type CpuMeter, cpuMeter, microsPerRequest } from './cpu'

// The load of the ingest bench (autocannon against POST /api/v1/ingest_events and its batch
// endpoint) and the processor time each measured run used.

/** Seconds of each measured run. */
export const DURATION = Number(process.env['BENCH_DURATION'] ?? 10)
/** Concurrent connections of the single-event runs. */
export const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 64)
/** Distinct fingerprints of the "many groups" runs. */
export const FINGERPRINTS = 5_000
/** Envelopes per request of the batch run. */
export const BATCH_SIZE = Number(process.env['BENCH_BATCH_SIZE'] ?? 1000)

/** Processor µs per request of a measured run: the server's and PostgreSQL's. */
export interface RunCpu {
  readonly server: number
  readonly postgres: number | null
}

/** One NDJSON batch of BATCH_SIZE copies of the event, each with a fresh event_id. */
function batchBody(): string {
  const event = (JSON.parse(body) as { event: Record<string, unknown> }).event
  return Array.from({ length: BATCH_SIZE }, () =>
    JSON.stringify({ event: { ...event, event_id: randomUUID() } }),
  ).join('\n')
}

/** POST /api/v1/ingest_events/batch with a new body (new event ids) per request. */
export async function loadBatches(url: string, headers: Record<string, string>) {
  const run = (duration: number) =>
    autocannon({
      url: `${url}/api/v1/ingest_events/batch`,
      method: 'POST',
      connections: Math.min(CONNECTIONS, 8),
      duration,
      headers: { 'content-type': 'application/x-ndjson', ...headers },
      requests: [
        {
          setupRequest: (request) => ({ ...request, body: batchBody() }),
        },
      ],
    })
  await run(2)
  return run(DURATION)
}

/** The bench event with fingerprint `n` of {@link FINGERPRINTS}. */
function fingerprinted(n: number): string {
  const event = (JSON.parse(body) as { event: Record<string, unknown> }).event
  return JSON.stringify({ event: { ...event, fingerprint: `bench-group-${n}` } })
}

/** Load options: `groups` distinct fingerprints (1: the same event every time). */
export interface LoadOptions {
  readonly groups?: number
  /** Requests per second over all connections (the lag run); unset: as fast as answered. */
  readonly rate?: number
  /**
   * With `rate`: the latencies are each response's own time. autocannon otherwise back-fills them
   * for coordinated omission with an expected interval of ceil(1 / per-connection rate) ms, which
   * is 1 ms at any rate of 1 req/s or more, so a 40 ms answer is recorded with 39 made-up ones.
   * @default false
   */
  readonly ignoreCoordinatedOmission?: boolean
  readonly duration?: number
  readonly warmUp?: boolean
  /** Started after the warm-up, stopped after the measured run. */
  readonly meters?: readonly CpuMeter[]
  /** The path loaded instead of `/api/v1/ingest_events` (the envelope comparison's). */
  readonly path?: string
  /** A new body for every request (fresh event ids); replaces `groups`. */
  readonly nextBody?: () => string
}

/**
 * Runs autocannon against the single-event endpoint (or `options.path`): a 2 s warm-up, then the
 * measured run.
 */
export async function load(
  url: string,
  headers: Record<string, string>,
  options: LoadOptions = {},
): Promise<autocannon.Result> {
  const groups = options.groups ?? 1
  const bodies = groups === 1 ? [body] : Array.from({ length: groups }, (_, n) => fingerprinted(n))
  let next = 0
  const nextBody =
    options.nextBody ?? (groups === 1 ? undefined : () => bodies[next++ % groups] as string)
  const run = (duration: number) =>
    autocannon({
      url: `${url}${options.path ?? '/api/v1/ingest_events'}`,
      method: 'POST',
      connections: CONNECTIONS,
      duration,
      ...(options.rate
        ? {
            overallRate: options.rate,
            ignoreCoordinatedOmission: !!options.ignoreCoordinatedOmission,
          }
        : {}),
      headers: { 'content-type': 'application/json', ...headers },
      ...(nextBody
        ? { requests: [{ setupRequest: (request) => ({ ...request, body: nextBody() }) }] }
        : { body }),
    })
  if (options.warmUp !== false) await run(2) // warm-up: JIT, connection pools, caches
  for (const meter of options.meters ?? []) meter.start()
  const result = await run(options.duration ?? DURATION)
  const used = (options.meters ?? []).map((meter) => meter.stop())
  cpuOf.set(result, used)
  return result
}

/** Processor seconds each meter of a `load` used during its measured run. */
const cpuOf = new WeakMap<autocannon.Result, number[]>()

/** The meters of a server process and, when known, of PostgreSQL. */
export function meters(
  serverPid: number | undefined,
  postgres: (() => number[]) | null,
): CpuMeter[] {
  return [cpuMeter(() => (serverPid ? [serverPid] : [])), ...(postgres ? [cpuMeter(postgres)] : [])]
}

/** µs per request of the run's meters (as `meters` made them). */
export function runCpu(result: autocannon.Result): RunCpu {
  const [server = Number.NaN, postgres] = cpuOf.get(result) ?? []
  const requests = result.requests.total
  return {
    server: microsPerRequest(server, requests),
    postgres: postgres === undefined ? null : microsPerRequest(postgres, requests),
  }
}

/** Whether `result` is a run of {@link load} with meters (so {@link runCpu} has figures). */
export const isMetered = (result: autocannon.Result) => cpuOf.has(result)
