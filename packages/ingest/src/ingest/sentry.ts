import {
  type NormalizedCheckIn,
  type NormalizedEvent,
  parseCheckInEnvelope,
  parseEventEnvelope,
  type SentryRecordsResult,
  sentryEnvelopeRecords,
  sentryStoreRecords,
} from '@tis/schema'
import { decodeBodyBytes } from '../body-decoder'
import { type EngineRequest, type EngineResponse, json, readHeader } from '../http'
import type { CredentialRecord, WriteOp, WriteResult } from '../ports'
import { type RateLimitState, rateLimitHeaders } from '../rate-limit'
import type { Admit } from './admission'
import { knownRecord } from './known-record'
import { sessionOp } from './session-op'

// Sentry's ingest protocol: `POST /api/<project>/envelope/` and the older
// `/api/<project>/store/`, authenticated by the key of the project's DSN (or any of its API
// keys) as Sentry's SDKs send it, mapped to native records (`@tis/schema`'s Sentry mapping) and
// written like a batch: all or nothing, through the same group commit, durable before the 200.

/** Which Sentry endpoint a request came to. */
export type SentryEndpoint = 'envelope' | 'store'

/** What {@link createSentryIngest} takes from the engine. */
export interface SentryIngestDeps {
  readonly admit: Admit
  readonly now: () => Date
  /** Largest body once decompressed, in bytes. */
  readonly maxBodyBytes: number
  readonly serviceEnvironment: string
  readonly buildEvent: (
    e: NormalizedEvent,
    c: CredentialRecord,
    at: Date,
  ) => WriteOp | EngineResponse
  readonly buildCheckIn: (
    c: NormalizedCheckIn,
    credential: CredentialRecord,
    at: Date,
  ) => WriteOp | EngineResponse
  /** Writes the ops in one transaction, all or nothing: the group commit's `writeGroup`. */
  write(ops: readonly WriteOp[]): Promise<readonly WriteResult[]>
  /**
   * Writes one record in the group commit's shared batch, like a native single event: the
   * group commit's `write`.
   */
  writeRecord(op: WriteOp): Promise<WriteResult>
}

/** Largest Sentry body once decompressed: Relay's default envelope cap is 100 MiB; ours 20 MiB. */
export const SENTRY_MAX_BODY_BYTES = 20 * 1_048_576

/**
 * The DSN key a request presents, as Sentry's SDKs send it: `X-Sentry-Auth: Sentry
 * sentry_key=…` (or the same in `Authorization`), the `sentry_key` query parameter (browsers),
 * or, last, the `dsn` of the envelope header (`dsn`: tunnels), as parsed. Without any, the
 * caller falls back to the request's own API key (a Bearer token or `X-Api-Key`).
 */
export function sentryKeyOf(request: EngineRequest, dsn?: unknown): string | undefined {
  for (const name of ['x-sentry-auth', 'authorization']) {
    const value = readHeader(request.headers, name)
    const match = value ? /(?:^|[\s,])sentry_key\s*=\s*([^,\s]+)/i.exec(value) : null
    if (match) return match[1]
  }
  const query = request.query?.['sentry_key']
  if (query) return query
  if (typeof dsn === 'string') {
    const key = /^[a-z]+:\/\/([^:@/]+)(?::[^@/]*)?@/i.exec(dsn)
    if (key) return key[1]
  }
  return undefined
}

/** The 429 of Sentry's protocol: `Retry-After` and `X-Sentry-Rate-Limits` (every category). */
function sentryTooManyRequests(refusal: EngineResponse): EngineResponse {
  const retryAfter = refusal.headers['Retry-After'] ?? '60'
  return {
    ...refusal,
    headers: { ...refusal.headers, 'X-Sentry-Rate-Limits': `${retryAfter}::organization` },
  }
}

const problem = (status: number, error: string, headers: Record<string, string> = {}) =>
  json(status, { error }, headers)

/** Creates the handler of both Sentry endpoints. */
export function createSentryIngest(deps: SentryIngestDeps) {
  return async (request: EngineRequest, endpoint: SentryEndpoint): Promise<EngineResponse> => {
    const at = deps.now()
    const project = request.params?.['project'] ?? ''
    if (!/^\d{1,18}$/.test(project)) {
      return problem(
        404,
        `no project ${JSON.stringify(project)}: a DSN's project part is the project's number`,
      )
    }
    const decoded = await decodeBodyBytes(request, deps.maxBodyBytes)
    if (!decoded.ok) return problem(decoded.status, decoded.problem)
    const parsed: SentryRecordsResult =
      endpoint === 'envelope'
        ? sentryEnvelopeRecords(decoded.bytes, at)
        : sentryStoreRecords(decoded.bytes)
    // The envelope header as parsed names the key of a tunnelled envelope (even a malformed one).
    const key = sentryKeyOf(request, parsed.header?.['dsn'])
    // Without a Sentry key, the request's own credential headers (a Bearer or X-Api-Key API key).
    const headers = key ? { authorization: `Bearer ${key}` } : request.headers
    // Authentication first: a malformed body from someone without a key is a 401.
    const admitted = await deps.admit(
      'ingest_events',
      { ...request, headers },
      at,
      // One per stored item (a transaction with its spans is one, as in Sentry's quotas), so a
      // page load counts like an OTLP export of its spans: once.
      Math.max(1, parsed.ok ? parsed.storedItems : 1),
    )
    if ('status' in admitted) {
      return admitted.status === 429 ? sentryTooManyRequests(admitted) : admitted
    }
    const limits = rateLimitHeaders(admitted.rate as RateLimitState)
    if (
      admitted.credential.projectNumber != null &&
      String(admitted.credential.projectNumber) !== project
    ) {
      return problem(
        403,
        `this key belongs to project ${admitted.credential.projectNumber}, not ${project}`,
        limits,
      )
    }
    if (!parsed.ok) return problem(400, parsed.message, limits)
    const ops: WriteOp[] = []
    for (const [i, record] of parsed.records.entries()) {
      if (record.kind === 'session') {
        ops.push(sessionOp(record.session, record.identity, admitted.credential, at))
        continue
      }
      const native =
        record.kind === 'event'
          ? parseEventEnvelope(record.envelope, { now: at })
          : parseCheckInEnvelope(record.envelope, {
              now: at,
              serviceEnvironment: deps.serviceEnvironment,
            })
      if (!native.ok) {
        const detail = native.status === 400 ? native.error : native.errors.join('; ')
        return problem(400, `record ${i + 1} (${record.kind}): ${detail}`, limits)
      }
      const op =
        record.kind === 'event'
          ? deps.buildEvent(native.value as NormalizedEvent, admitted.credential, at)
          : deps.buildCheckIn(native.value as NormalizedCheckIn, admitted.credential, at)
      if ('status' in op) return { ...op, headers: { ...op.headers, ...limits } }
      ops.push(op)
    }
    // Sessions never conflict (their ids are the project's own) and a repeat counts once, so
    // they need no all-or-nothing group: they join the shared batch once the envelope's other
    // records are stored (or refused, and then they are not written). One record needs no group
    // of its own either (all or nothing of one is that record): it joins the shared batch like
    // a native event, instead of paying a transaction and a commit alone.
    const records = ops.filter((op) => op.type !== 'session')
    const sessions = ops.filter((op) => op.type === 'session')
    const stored =
      records.length === 1
        ? [await deps.writeRecord(records[0] as WriteOp)]
        : records.length > 0
          ? await deps.write(records)
          : []
    const conflict = stored.findIndex((r, i) => knownRecord(records[i]!, r) === 'conflict')
    if (conflict !== -1) {
      return problem(
        400,
        `record ${ops.indexOf(records[conflict]!) + 1}: its event_id is already used by another project`,
        limits,
      )
    }
    await Promise.all(sessions.map((op) => deps.writeRecord(op)))
    return json(200, { id: parsed.eventId ?? stored[0]?.id.replaceAll('-', '') ?? null }, limits)
  }
}
