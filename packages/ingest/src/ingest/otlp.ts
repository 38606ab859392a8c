import {
  decodeOtlpLogs,
  decodeOtlpTraces,
  encodeOtlpExportResponse,
  encodeOtlpStatus,
  type OtlpEncoding,
  type OtlpEventEnvelope,
  type OtlpSignal,
  otlpLogsToEnvelopes,
  otlpSpanEnvelopeGroups,
  parseEventEnvelope,
} from '@tis/schema'
import { decodeBodyBytes } from '../body-decoder'
import { StoreError } from '../errors'
import { type EngineRequest, type EngineResponse, readHeader } from '../http'
import type { CredentialRecord, WriteOp } from '../ports'
import { type RateLimitState, rateLimitHeaders } from '../rate-limit'
import { knownRecord } from './known-record'
import type { SentryIngestDeps } from './sentry'

// OTLP/HTTP: `POST /v1/traces` and `POST /v1/logs`, protobuf or JSON, authenticated
// by a project API key header, mapped to native records (`@tis/schema`'s OTLP mapping) and
// written through the same group commit as a batch, durable before the 200. Answers follow the
// OTLP specification: the request's encoding, `partial_success` for rejected records, a
// `google.rpc.Status` for refusals, 429/503 with `Retry-After` (which exporters retry).

/**
 * What {@link createOtlpIngest} takes from the engine: what the Sentry handler takes, less
 * check-ins (OTLP has none) and the single-record write.
 */
export type OtlpIngestDeps = Pick<
  SentryIngestDeps,
  'admit' | 'now' | 'maxBodyBytes' | 'buildEvent' | 'write'
>

/** Largest OTLP body once decompressed: the exporters send batches of up to 512 records. */
export const OTLP_MAX_BODY_BYTES = 20 * 1_048_576

const CONTENT_TYPES: Readonly<Record<string, OtlpEncoding>> = {
  'application/x-protobuf': 'protobuf',
  'application/json': 'json',
}

/** The answer of `encoding`: bytes with OTLP's protobuf type, or a JSON body. */
function answer(
  status: number,
  encoding: OtlpEncoding,
  body: Uint8Array | Record<string, unknown>,
  headers: Readonly<Record<string, string>> = {},
): EngineResponse {
  return encoding === 'protobuf'
    ? { status, headers: { ...headers, 'Content-Type': 'application/x-protobuf' }, body }
    : { status, headers, body }
}

/** A refusal as a `google.rpc.Status` in the request's encoding, keeping its headers. */
function refuse(
  status: number,
  message: string,
  encoding: OtlpEncoding,
  headers: Readonly<Record<string, string>> = {},
): EngineResponse {
  return answer(status, encoding, encodeOtlpStatus(status, message, encoding), headers)
}

/** The message of an engine refusal (`{error}` or `{errors}` bodies). */
function messageOf(response: EngineResponse): string {
  const body = response.body as { error?: unknown; errors?: unknown } | null
  if (typeof body?.error === 'string') return body.error
  if (Array.isArray(body?.errors)) return body.errors.join('; ')
  return `refused with HTTP ${response.status}`
}

const NOUNS = { traces: 'span', logs: 'log record' } as const

/** Creates the handler of both OTLP endpoints. */
export function createOtlpIngest(deps: OtlpIngestDeps) {
  return async (request: EngineRequest, signal: OtlpSignal): Promise<EngineResponse> => {
    const at = deps.now()
    const contentType = readHeader(request.headers, 'content-type') ?? ''
    const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase()
    const encoding = CONTENT_TYPES[mediaType]
    if (encoding === undefined) {
      const sent = contentType === '' ? 'no Content-Type' : `Content-Type ${contentType}`
      return refuse(415, `${sent}: send application/x-protobuf or application/json`, 'json')
    }
    const decoded = await decodeBodyBytes(request, deps.maxBodyBytes)
    if (!decoded.ok) return refuse(decoded.status, decoded.problem, encoding)
    const parsed =
      signal === 'traces'
        ? mapped(decodeOtlpTraces(decoded.bytes, mediaType), otlpSpanEnvelopeGroups)
        : mapped(decodeOtlpLogs(decoded.bytes, mediaType), (logs) =>
            otlpLogsToEnvelopes(logs).map((envelope) => [envelope]),
          )
    // Authentication first: a malformed body from someone without a key is a 401. An export
    // counts as one request against the rate limit, whatever it holds: exporters batch (up to
    // 512 records every 5 s by default), and counting records would throttle any traced service
    // at the default 1,200 a minute. The body cap bounds what one request can carry.
    const admitted = await deps.admit('ingest_events', request, at, 1)
    if ('status' in admitted) {
      return refuse(admitted.status, messageOf(admitted), encoding, admitted.headers)
    }
    const limits = rateLimitHeaders(admitted.rate as RateLimitState)
    if (!parsed.ok) return refuse(400, parsed.message, encoding, limits)

    // Each span (with the transaction and errors it gives) or log record is accepted or
    // rejected whole; rejected ones are counted in `partial_success`, the rest are stored.
    const ops: WriteOp[] = []
    const groupOf: number[] = []
    const rejected = new Map<number, string>()
    for (const [g, group] of parsed.groups.entries()) {
      const built: WriteOp[] = []
      for (const envelope of group) {
        const op = buildOp(envelope, admitted.credential, at, deps)
        if (typeof op === 'string') {
          rejected.set(g, op)
          break
        }
        built.push(op)
      }
      if (rejected.has(g)) continue
      for (const op of built) {
        ops.push(op)
        groupOf.push(g)
      }
    }
    try {
      await writeAll(ops, groupOf, rejected, deps.write)
    } catch (error) {
      if (StoreError.is(error) && error.code === 'unavailable') {
        const message = 'the database is unavailable: retry later'
        return refuse(503, message, encoding, { ...limits, 'Retry-After': '5' })
      }
      throw error
    }
    const [first] = [...rejected.entries()].sort(([a], [b]) => a - b)
    const message =
      first === undefined
        ? ''
        : `${rejected.size} ${NOUNS[signal]}${rejected.size === 1 ? '' : 's'} rejected; ${NOUNS[signal]} ${first[0] + 1}: ${first[1]}`
    return answer(
      200,
      encoding,
      encodeOtlpExportResponse(signal, encoding, rejected.size, message),
      limits,
    )
  }
}

/**
 * Writes `ops` all or nothing. A record whose event id another project already used makes the
 * store write none of them: its span is rejected and the others written again, until a write
 * goes through (each round drops at least one span, so it ends).
 */
async function writeAll(
  ops: readonly WriteOp[],
  groupOf: readonly number[],
  rejected: Map<number, string>,
  write: OtlpIngestDeps['write'],
): Promise<void> {
  let pending = ops.map((op, i) => ({ op, group: groupOf[i]! }))
  while (pending.length > 0) {
    const written = await write(pending.map((p) => p.op))
    const conflicts = new Set(
      pending.filter((p, i) => knownRecord(p.op, written[i]!) === 'conflict').map((p) => p.group),
    )
    if (conflicts.size === 0) return
    for (const group of conflicts) {
      rejected.set(group, 'its event_id is already used by another project')
    }
    pending = pending.filter((p) => !conflicts.has(p.group))
  }
}

type Mapped =
  | { readonly ok: true; readonly groups: readonly OtlpEventEnvelope[][] }
  | { readonly ok: false; readonly message: string }

function mapped<T>(
  result: { ok: true; value: T } | { ok: false; message: string },
  toGroups: (value: T) => OtlpEventEnvelope[][],
): Mapped {
  return result.ok ? { ok: true, groups: toGroups(result.value) } : result
}

/** The write of one mapped envelope, or why it is rejected. */
function buildOp(
  envelope: OtlpEventEnvelope,
  credential: CredentialRecord,
  at: Date,
  deps: OtlpIngestDeps,
): WriteOp | string {
  const id = envelope.event['event_id']
  const scoped =
    typeof id === 'string'
      ? { event: { ...envelope.event, event_id: projectEventId(id, credential.projectId) } }
      : envelope
  const native = parseEventEnvelope(scoped, { now: at })
  if (!native.ok) return native.status === 400 ? native.error : native.errors.join('; ')
  const op = deps.buildEvent(native.value, credential, at)
  return 'status' in op ? messageOf(op) : op
}

/**
 * A span's stable event id (from its trace and span ids) made the project's own: XORed with the
 * project's UUID, version 8 and the variant set again. The same span sent to two projects (a
 * collector fanning out) is then two records, never a conflict; sent twice to one, one record.
 */
export function projectEventId(eventId: string, projectId: string): string {
  const a = eventId.replaceAll('-', '')
  const b = projectId.replaceAll('-', '').toLowerCase()
  if (!/^[0-9a-f]{32}$/.test(a) || !/^[0-9a-f]{32}$/.test(b)) return eventId
  const x = (BigInt(`0x${a}`) ^ BigInt(`0x${b}`)).toString(16).padStart(32, '0').split('')
  x[12] = '8'
  x[16] = ((Number.parseInt(x[16]!, 16) & 0x3) | 0x8).toString(16)
  const h = x.join('')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}
