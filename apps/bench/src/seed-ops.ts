// The records of a seeded project as the writes the engine hands the ingest log: normalised
// events (top-level fields copied into `context`, as the normaliser does) with the issue
// grouping, monitor update and ids the engine decides for them. The store's own append and
// projection turn them into rows, so every derived column (name_key, is_error, issue counts,
// check-in history, idempotency and span keys) comes from the product's code.
import { randomUUID } from 'node:crypto'
import { issueGrouping, type WriteOp } from '@tis/ingest'
import { spanKey } from '@tis/storage-postgres'
import {
  hex32,
  issueTitle,
  LOG_TEMPLATES,
  METRIC_NAMES,
  MONITOR_SLUGS,
  normal,
  RELEASES,
  randomSource,
  type SeedShape,
  spanSeconds,
  TRANSACTION_NAMES,
} from './seed-shape'

type EventOp = Extract<WriteOp, { type: 'event' }>
type SpanOp = Extract<WriteOp, { type: 'span' }>
type DeploymentOp = Extract<WriteOp, { type: 'deployment' }>

/** How the writes of one seeding are made. */
export interface OpOptions {
  /** Events carry an `event_id` (as SDKs send one), so each claims its idempotency key. */
  readonly keys: boolean
  /** The clock the records are dated back from (ms). */
  readonly now: number
}

/** A UUID v7 of `ms`, as the engine mints for an event without `event_id`. */
const uuidv7 = (ms: number) => {
  const r = randomUUID()
  const t = Math.floor(ms).toString(16).padStart(12, '0')
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${r.slice(15, 18)}-${r.slice(19)}`
}

/** `fields` without its undefined values. */
const defined = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined))

const pick = <T>(items: readonly T[], i: number) => items[i % items.length] as T

/**
 * Events `part.from` to `part.to` of the project: 40% log, 20% error over `issues` issues
 * (skewed: a few hold most), 20% transaction, 15% metric, 5% check_in, oldest first with a
 * minute of jitter over the shape's days, so the heap follows time as an append-only log does.
 */
export function* eventOps(
  projectId: string,
  s: SeedShape,
  part: { readonly from: number; readonly to: number },
  options: OpOptions,
): Generator<EventOp> {
  const random = randomSource(`${s.tag}:events:${part.from}`)
  const seconds = spanSeconds(s)
  const receivedAt = new Date(options.now)
  for (let g = part.from; g <= part.to; g++) {
    const age = Math.max(0, seconds * (1 - g / s.events) + random() * 60)
    const occurredAt = new Date(options.now - age * 1000)
    const h = (g * 7919) % 1_000_003
    const [r1, r2, r3, r4, z] = [random(), random(), random(), random(), normal(random)]
    const m = g % 100
    const type =
      m < 40 ? 'log' : m < 60 ? 'error' : m < 80 ? 'transaction' : m < 95 ? 'metric' : 'check_in'
    const web = type === 'transaction' || type === 'error'
    const env =
      r3 < 0.7 ? 'production' : r3 < 0.9 || type === 'check_in' ? 'staging' : 'development'
    const release = RELEASES[Math.min(RELEASES.length - 1, Math.floor((1 - age / seconds) * 6))]
    const issueN = Math.floor(s.issues * r1 ** 3)
    const transactionName = web ? pick(TRANSACTION_NAMES, h) : undefined
    const slug = pick(MONITOR_SLUGS, h)
    const message = {
      log: `${pick(LOG_TEMPLATES, h)} #${h % 100_000}`,
      error: issueTitle(issueN),
      transaction: transactionName,
      metric: r2 < 0.5 ? 'db.query' : pick(METRIC_NAMES.slice(1), h),
      check_in: slug,
    }[type]
    const level =
      type === 'log'
        ? r2 < 0.7
          ? 'info'
          : r2 < 0.9
            ? 'warning'
            : 'debug'
        : type === 'error'
          ? r2 < 0.95
            ? 'error'
            : 'fatal'
          : 'info'
    const status = r2 < 0.02 ? 500 + (h % 4) : r2 < 0.07 ? 404 : 200
    const fields = defined({
      environment: env,
      release,
      trace_id:
        web || (type === 'log' && r2 < 0.5) ? hex32(`${s.tag}:trace:${h % 400_000}`) : undefined,
      request_id: web ? `req-${s.tag}-${Math.floor(g / 3)}` : undefined,
      session_id: r3 < 0.6 ? hex32(`${s.tag}:session:${h % 30_000}`) : undefined,
      user_id: r4 < 0.5 ? `user-${h % 8000}` : undefined,
      transaction_name: transactionName,
      duration_ms: type === 'transaction' ? Math.exp(Math.log(80) + 0.9 * z) : undefined,
    })
    const checkIn =
      type === 'check_in'
        ? { check_in_slug: slug, check_in_status: 'ok', expected_interval_seconds: 3600 }
        : {}
    const route = transactionName?.split(' ')[1]
    const context = defined({
      ...fields,
      ...checkIn,
      value:
        type !== 'metric'
          ? undefined
          : r2 < 0.5
            ? Math.round(Math.exp(Math.log(4) + 0.8 * z) * 1000) / 1000
            : Math.round(r3 * 10_000) / 100,
      tags: { region: h % 2 ? 'us-east-1' : 'eu-west-1', host: `api-${h % 8}` },
      exception:
        type === 'error'
          ? {
              exception_class: message?.split(':')[0],
              frames: [
                {
                  filename: 'src/routes/orders.ts',
                  function: 'handler',
                  lineno: 10 + (issueN % 200),
                },
                { filename: 'src/app.ts', function: 'dispatch', lineno: 88 },
              ],
            }
          : undefined,
      request: web
        ? { method: transactionName?.split(' ')[0], route, url: `https://api.acme.test${route}` }
        : undefined,
      response: type === 'transaction' ? { status_code: status } : undefined,
    })
    const id = options.keys ? randomUUID() : uuidv7(occurredAt.getTime())
    const event = {
      ...defined({ event_type: type, message, level, event_id: options.keys ? id : undefined }),
      occurred_at: occurredAt.toISOString(),
      ...fields,
      ...checkIn,
      context,
    } as EventOp['event']
    yield {
      type: 'event',
      id,
      dedupe: options.keys,
      projectId,
      receivedAt,
      event,
      occurredAt,
      issue: type === 'error' ? issueGrouping({ message, level }) : null,
      monitor:
        type === 'check_in'
          ? {
              ...{ slug, environment: env, status: 'ok', health: 'ok', release: release ?? null },
              ...{ expectedIntervalSeconds: 3600, durationMs: null, traceId: null },
              ...{ requestId: null, occurredAt },
            }
          : null,
      deployment: null,
    }
  }
}

/** Traces of 5–10 spans (`md5(tag:trace:t)`): a server or browser root with nested children. */
export function* spanOps(projectId: string, s: SeedShape, options: OpOptions): Generator<SpanOp> {
  const random = randomSource(`${s.tag}:spans`)
  const receivedAt = new Date(options.now)
  for (let t = 0; t < Math.round(s.spans / 7.5); t++) {
    const t0 = options.now - random() * spanSeconds(s) * 1000
    const rootMs = Math.exp(Math.log(120) + 0.8 * normal(random))
    const rootName = pick(TRANSACTION_NAMES, t)
    const traceId = hex32(`${s.tag}:trace:${t}`)
    const spanId = (k: number) => hex32(`${s.tag}:span:${t}:${k}`).slice(0, 16)
    const common = { environment: pick(['production', 'production', 'staging'], t) }
    const release = pick(RELEASES, t)
    for (let k = 0; k < 5 + (t % 6); k++) {
      const started = new Date(t0 + k * 3)
      const duration = k === 0 ? rootMs : rootMs / (k + 1.5)
      const ids = defined({
        trace_id: traceId,
        span_id: spanId(k),
        parent_span_id: k === 0 ? undefined : spanId(k <= 3 ? 0 : k - 1),
      })
      const kind =
        k === 0
          ? t % 5 === 0
            ? 'browser'
            : 'server'
          : pick(['db', 'http', 'cache', 'internal'], k)
      const name =
        k === 0
          ? t % 5 === 0
            ? `pageload ${rootName.split(' ')[1]}`
            : rootName
          : pick(['SELECT orders', 'GET payments.internal', 'cache get', 'render'], k)
      const at = started.toISOString()
      const fields = { ...common, release, duration_ms: duration }
      const event = {
        ...{ event_type: 'span', name, kind, ...ids, started_at: at, occurred_at: at },
        ended_at: new Date(started.getTime() + duration).toISOString(),
        ...fields,
        context: { ...ids, kind, ...fields },
      } as SpanOp['event']
      const id = spanKey(projectId, traceId, spanId(k))
      yield { type: 'span', id, dedupe: true, projectId, receivedAt, event, occurredAt: started }
    }
  }
}

/** A deployment of every release to every environment, one every ~28 hours over 7 days. */
export function deploymentOps(projectId: string, environments: readonly string[], now: number) {
  return RELEASES.flatMap((release, i) =>
    environments.map((environment): DeploymentOp => {
      const deployedAt = new Date(now - 7 * 86_400_000 + i * 28 * 3_600_000)
      const commitSha = hex32(release + environment) + hex32(environment).slice(0, 8)
      const record = {
        ...{ repository: 'acme/api', environment, release, commit_sha: commitSha },
        ...{ branch: 'main', deployed_at: deployedAt.toISOString() },
      }
      return {
        type: 'deployment',
        id: uuidv7(deployedAt.getTime()),
        projectId,
        receivedAt: new Date(now),
        deployment: record as DeploymentOp['deployment'],
        upsert: {
          ...{ repository: 'acme/api', environment, release, commitSha, source: 'api' },
          ...{ record, deployedAt },
        },
      }
    }),
  )
}
