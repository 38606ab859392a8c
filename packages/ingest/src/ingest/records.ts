import {
  DEFAULT_CHECK_IN_INTERVAL_SECONDS,
  DEFAULT_DEPLOYMENT_ENVIRONMENT,
  type NormalizedCheckIn,
  type NormalizedDeployment,
  type NormalizedEvent,
  parseDateTime,
} from '@tis/schema'
import type { DeploymentUpsert, MonitorUpdate } from '../ports'

/** Monitor health a check-in status implies: `ok` and `error` set it, other statuses leave it. */
export function monitorHealth(status: string): 'ok' | 'error' | null {
  const s = status.trim().toLowerCase()
  return s === 'ok' ? 'ok' : s === 'error' ? 'error' : null
}

/** The monitor update of a compact check-in (`POST /api/v1/check_ins`). */
export function monitorFromCheckIn(checkIn: NormalizedCheckIn): MonitorUpdate {
  return {
    slug: checkIn.slug,
    environment: checkIn.environment,
    status: checkIn.status,
    health: monitorHealth(checkIn.status),
    release: checkIn.release,
    expectedIntervalSeconds: checkIn.expected_interval_seconds,
    durationMs: checkIn.duration_ms,
    traceId: checkIn.trace_id,
    requestId: checkIn.request_id,
    occurredAt: parseDateTime(checkIn.occurred_at),
  }
}

/**
 * A check-in field of a `check_in` event as the engine reads it: the top-level value, else the
 * one in `context`, where Logister's clients put them. The normaliser has validated
 * both on check_in events, so only the absent case is left to narrow.
 */
function checkInField<K extends keyof NormalizedEvent & string>(
  event: NormalizedEvent,
  name: K,
): NonNullable<NormalizedEvent[K]> | undefined {
  return (event[name] ?? event.context[name] ?? undefined) as NonNullable<NormalizedEvent[K]>
}

/**
 * The monitor update of a `check_in` event (section 4 rule 1), with the check-in defaults. Each
 * field comes from the top level, else from `context`, so a check-in whose fields sit only in
 * `context` moves its monitor exactly like the compact shape.
 */
export function monitorFromEvent(
  event: NormalizedEvent,
  serviceEnvironment: string,
): MonitorUpdate {
  const status = checkInField(event, 'check_in_status') ?? 'ok'
  return {
    slug: checkInField(event, 'check_in_slug') ?? '',
    environment: checkInField(event, 'environment') ?? serviceEnvironment,
    status,
    health: monitorHealth(status),
    release: checkInField(event, 'release') ?? null,
    expectedIntervalSeconds:
      checkInField(event, 'expected_interval_seconds') ?? DEFAULT_CHECK_IN_INTERVAL_SECONDS,
    durationMs: checkInField(event, 'duration_ms') ?? null,
    traceId: checkInField(event, 'trace_id') ?? null,
    requestId: checkInField(event, 'request_id') ?? null,
    occurredAt: parseDateTime(event.occurred_at),
  }
}

/** The upsert of a deployment posted to `POST /api/v1/deployments`. */
export function deploymentFromApi(deployment: NormalizedDeployment, at: Date): DeploymentUpsert {
  return {
    repository: deployment.repository,
    environment: deployment.environment,
    release: deployment.release,
    commitSha: deployment.commit_sha,
    source: 'api',
    record: deployment,
    deployedAt: deployment.deployed_at ? parseDateTime(deployment.deployed_at) : at,
  }
}

/**
 * The deployment an event implies when it carries a release, a repository and a commit sha (top
 * level, else in `context`); `null` otherwise. It never overwrites a recorded deployment.
 */
export function deploymentFromEvent(event: NormalizedEvent): DeploymentUpsert | null {
  const release = event.release ?? event.context.release
  const repository = event.repository ?? event.context.repository
  const commitSha = event.commit_sha ?? event.context.commit_sha
  if (!release || !repository || !commitSha) return null
  const environment =
    event.environment ?? event.context.environment ?? DEFAULT_DEPLOYMENT_ENVIRONMENT
  const branch = event.branch ?? event.context.branch
  return {
    repository,
    environment,
    release,
    commitSha,
    source: 'event',
    record: {
      release,
      environment,
      repository,
      commit_sha: commitSha,
      ...(branch ? { branch } : {}),
    },
    deployedAt: parseDateTime(event.occurred_at),
  }
}
