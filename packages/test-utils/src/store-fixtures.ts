import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type {
  IngestLog,
  IngestStore,
  MobileBinding,
  MonitorUpdate,
  ProjectionStore,
  WriteOp,
  WriteOptions,
  WriteResult,
} from '@tis/ingest'

type EventOp = Extract<WriteOp, { type: 'event' }>
type NormalizedEvent = EventOp['event']

// Builders of write ops as the engine makes them, with unique ids so suites share a store, and
// the one way a test stores them: acceptance on the ingest log, then the projection.

/**
 * Projects until the projection has passed everything acknowledged before the call; resolves
 * the entries projected. On PostgreSQL an entry is projectable only once every older
 * transaction of the cluster has ended (the log's xmin rule), and suites in other databases
 * share the cluster: a round that finds nothing while entries are pending waits and tries again.
 */
export async function projectAll(
  store: ProjectionStore,
  limit = 1000,
  timeoutMs = 30_000,
): Promise<number> {
  const target = await store.pendingTarget()
  const deadline = Date.now() + timeoutMs
  let total = 0
  for (;;) {
    const round = await store.project(limit)
    total += round.projected
    if (round.more) continue
    if (!round.busy && (target === null || (await store.hasProjected(target)))) return total
    if (Date.now() > deadline) {
      throw new Error(`projectAll: the projection did not pass the log within ${timeoutMs} ms`)
    }
    await sleep(5)
  }
}

/**
 * One projection round of up to `limit` entries that finds something: a round that finds
 * nothing (the cluster's xmin rule, see `projectAll`) waits and tries again. Resolves the round.
 */
export async function projectRound(
  store: ProjectionStore,
  limit: number,
  timeoutMs = 30_000,
): Promise<Awaited<ReturnType<ProjectionStore['project']>>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const round = await store.project(limit)
    if (round.projected > 0) return round
    if (Date.now() > deadline) {
      throw new Error(`projectRound: nothing became projectable within ${timeoutMs} ms`)
    }
    await sleep(5)
  }
}

/**
 * Stores a batch as the engine does: appends it to the ingest log (the acknowledgement), then
 * projects the log until caught up, so the read model holds it. Resolves the append's results.
 */
export async function acceptAndProject(
  store: IngestLog & ProjectionStore,
  batch: readonly WriteOp[],
  options?: WriteOptions,
): Promise<readonly WriteResult[]> {
  const results = await store.append(batch, options)
  await projectAll(store)
  return results
}

/** A fresh SHA-256-hex-shaped grouping hash. */
export const uniqueHash = () => randomUUID().replaceAll('-', '').padEnd(64, '0')

/** A time `seconds` after a fixed origin, so ordering in assertions is explicit. */
export const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds))

/** A mobile token binding with every optional field set. */
export const MOBILE_BINDING: MobileBinding = {
  platform: 'ios',
  service: 'com.example.app',
  environment: 'production',
  release: '1.2.3',
  sessionId: 'session-1',
  allowedEventTypes: ['error', 'check_in'],
}

/** Creates a user and a project they own. */
export async function seedProject(store: IngestStore) {
  const userId = randomUUID()
  const projectId = randomUUID()
  await store.createUser({
    id: userId,
    email: `owner-${userId}@example.com`,
    tokenDigest: uniqueHash(),
    createdAt: at(0),
  })
  await store.createProject({
    id: projectId,
    name: 'contract',
    integrationKind: 'node',
    ownerId: userId,
    createdAt: at(0),
  })
  return { userId, projectId }
}

/**
 * {@link seedProject} on a database migrated only part of the way (upgrade tests): the user and
 * the project as rows of the first migration's columns, written with plain SQL, since the
 * store's own statements name columns of later migrations.
 */
export async function seedLegacyProject(
  query: (sql: string, params: readonly string[]) => Promise<unknown>,
) {
  const userId = randomUUID()
  const projectId = randomUUID()
  const createdAt = at(0).toISOString()
  await query('insert into users (id, email, created_at) values ($1::uuid, $2, $3::timestamptz)', [
    userId,
    `owner-${userId}@example.com`,
    createdAt,
  ])
  await query(
    `insert into projects (id, name, integration_kind, owner_id, created_at)
     values ($1::uuid, 'contract', 'node', $2::uuid, $3::timestamptz)`,
    [projectId, userId, createdAt],
  )
  return { userId, projectId }
}

function event(fields: Partial<NormalizedEvent> & Pick<NormalizedEvent, 'event_type'>) {
  return { occurred_at: at(0).toISOString(), context: {}, ...fields } as NormalizedEvent
}

/** Fields of {@link eventOp}. */
export interface EventOpFields {
  occurredAt?: Date
  release?: string
  event?: Partial<NormalizedEvent>
  issue?: { hash: string; level?: string; title?: string }
  monitor?: MonitorUpdate
  deployment?: { repository: string; environment: string; release: string; commitSha: string }
}

/** An event op; an `error` when `issue` is given, a `check_in` when `monitor` is. */
export function eventOp(projectId: string, f: EventOpFields = {}): EventOp {
  const occurredAt = f.occurredAt ?? at(0)
  const type = f.issue ? 'error' : f.monitor ? 'check_in' : 'log'
  return {
    type: 'event',
    id: randomUUID(),
    projectId,
    receivedAt: occurredAt,
    occurredAt,
    event: event({
      event_type: type,
      message: f.issue?.title ?? 'hello',
      occurred_at: occurredAt.toISOString(),
      ...(f.release ? { release: f.release } : {}),
      ...f.event,
    }),
    issue: f.issue
      ? {
          hash: f.issue.hash,
          key: `message:${f.issue.hash}`,
          title: f.issue.title ?? 'Boom',
          level: f.issue.level ?? 'error',
        }
      : null,
    monitor: f.monitor ?? null,
    deployment: f.deployment
      ? { ...f.deployment, source: 'event', record: { ...f.deployment }, deployedAt: occurredAt }
      : null,
  }
}

/** A span op; `fields` are merged into its event. */
export function spanOp(
  projectId: string,
  traceId: string,
  fields: Partial<NormalizedEvent> = {},
): WriteOp {
  return {
    type: 'span',
    id: randomUUID(),
    projectId,
    receivedAt: at(0),
    occurredAt: at(0),
    event: event({
      event_type: 'span',
      name: 'GET /',
      trace_id: traceId,
      span_id: randomUUID().slice(0, 16),
      started_at: at(0).toISOString(),
      ended_at: at(1).toISOString(),
      ...fields,
    }),
  }
}

/** A monitor update as the engine derives it (`ok` / `error` set health, others leave it). */
export function monitorUpdate(
  slug: string,
  status: string,
  occurredAt: Date,
  extra: Partial<MonitorUpdate> = {},
): MonitorUpdate {
  return {
    slug,
    environment: 'production',
    status,
    health: status === 'ok' || status === 'error' ? status : null,
    release: null,
    expectedIntervalSeconds: 300,
    durationMs: null,
    traceId: null,
    requestId: null,
    occurredAt,
    ...extra,
  }
}

/** A check-in op (`POST /api/v1/check_ins`). */
export function checkInOp(projectId: string, monitor: MonitorUpdate): WriteOp {
  return {
    type: 'check_in',
    id: randomUUID(),
    projectId,
    receivedAt: monitor.occurredAt,
    checkIn: {
      slug: monitor.slug,
      status: monitor.status,
      occurred_at: monitor.occurredAt.toISOString(),
      environment: monitor.environment,
      release: monitor.release,
      expected_interval_seconds: monitor.expectedIntervalSeconds,
      duration_ms: monitor.durationMs,
      trace_id: monitor.traceId,
      request_id: monitor.requestId,
    },
    monitor,
  }
}

/** Fields of {@link deploymentOp}. */
export interface DeploymentFields {
  repository: string
  release: string
  commitSha: string
  environment?: string
  branch?: string
}

/** A deployment op (`POST /api/v1/deployments`). */
export function deploymentOp(projectId: string, f: DeploymentFields): WriteOp {
  const deployment = {
    release: f.release,
    environment: f.environment ?? 'production',
    repository: f.repository,
    commit_sha: f.commitSha,
    ...(f.branch ? { branch: f.branch } : {}),
  }
  return {
    type: 'deployment',
    id: randomUUID(),
    projectId,
    receivedAt: at(0),
    deployment,
    upsert: {
      repository: f.repository,
      environment: deployment.environment,
      release: f.release,
      commitSha: f.commitSha,
      source: 'api',
      record: deployment,
      deployedAt: at(0),
    },
  }
}
