// The load and the pass of the retention bench: single events at a fixed rate (autocannon's
// overallRate, latencies corrected for coordinated omission) for a window, or until a retention
// pass run by `tis prune` in its own process ends.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import type { RetentionReport } from '@tis/ingest'
import autocannon from 'autocannon'
import { BENCH_EVENT_BODY as body } from './bench-event'
import { CONNECTIONS } from './ingest-load'
import { SERVER_MAIN } from './ingest-servers'

const CLI_MAIN = join(SERVER_MAIN, '..', 'cli.js')

/** A running load: stop it to get its result. */
export interface RunningLoad {
  readonly done: Promise<autocannon.Result>
  stop(): void
}

/** Single events to `url` at `rate` req/s for at most `seconds` (or until stopped). */
export function startLoad(url: string, token: string, rate: number, seconds: number): RunningLoad {
  let instance: autocannon.Instance | undefined
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: `${url}/api/v1/ingest_events`,
        method: 'POST',
        connections: CONNECTIONS,
        duration: seconds,
        overallRate: Math.max(1, Math.round(rate)),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    )
  })
  return { done, stop: () => instance?.stop() }
}

/** What a retention pass of `tis prune` did and how long its process ran. */
export interface PassResult {
  readonly seconds: number
  readonly report: RetentionReport
}

/** Runs `tis prune --json` against `databaseUrl` with `env` (SERVICE_RETENTION_*). */
export function prune(databaseUrl: string, env: Record<string, string>): Promise<PassResult> {
  const started = performance.now()
  const child = spawn(process.execPath, [CLI_MAIN, 'prune', '--json'], {
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl, SERVICE_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => {
    stdout += String(d)
  })
  child.stderr.on('data', (d) => {
    stderr += String(d)
  })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => {
      const seconds = (performance.now() - started) / 1000
      if (code !== 0) return reject(new Error(`tis prune exited ${code}: ${stderr}`))
      try {
        resolve({ seconds, report: JSON.parse(stdout) as RetentionReport })
      } catch {
        reject(new Error(`tis prune printed no JSON report: ${stdout} ${stderr}`))
      }
    })
  })
}

/** Deleted rows of a pass, summed over its projects. */
export function deleted(report: RetentionReport) {
  const sum = (k: 'events' | 'spans' | 'checkIns' | 'issues') =>
    report.projects.reduce((n, p) => n + p[k], 0)
  return {
    events: sum('events'),
    spans: sum('spans'),
    checkIns: sum('checkIns'),
    issues: sum('issues'),
  }
}

/** p50 and p99 (ms), rate and non-2xx of a load's result, for a table row. */
export function loadRow(window: string, result: autocannon.Result, seconds: number) {
  return {
    window,
    seconds: Math.round(seconds * 10) / 10,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'max ms': result.latency.max,
    'non-2xx': result.non2xx + result.errors + result.timeouts,
  }
}
