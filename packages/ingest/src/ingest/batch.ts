import { missingEnvelopeMessage, type NormalizedEvent, parseEventEnvelope } from '@tis/schema'
import { type EngineRequest, type EngineResponse, json } from '../http'
import type { CredentialRecord, WriteOp, WriteResult } from '../ports'
import { type RateLimitState, rateLimitHeaders } from '../rate-limit'
import {
  acceptedBatch,
  type BatchLineResult,
  type BatchLineType,
  batchIdOf,
  rejectedBatch,
} from './batch-answer'
import { type BatchLimits, batchLines } from './batch-lines'
import { knownRecord } from './known-record'

/** What {@link createBatchIngest} takes from the engine. */
export interface BatchIngestDeps {
  readonly limits: BatchLimits
  readonly now: () => Date
  /**
   * Authenticates and takes `count` units of the `ingest_events` window: all of them, or none
   * and the refusal (401, 403, 413 when `count` exceeds the whole window, 429).
   */
  admit(
    request: EngineRequest,
    at: Date,
    count: number,
  ): Promise<{ credential: CredentialRecord; rate: RateLimitState } | EngineResponse>
  /** The write of one valid envelope for the credential, or its refusal (403, 422). */
  build(event: NormalizedEvent, credential: CredentialRecord, at: Date): WriteOp | EngineResponse
  /** Writes the ops in one transaction, all or nothing: the group commit's `writeGroup`. */
  write(ops: readonly WriteOp[]): Promise<readonly WriteResult[]>
}

type Prepared =
  | { readonly type: BatchLineType; readonly op: WriteOp }
  | { readonly type: BatchLineType; readonly errors: readonly string[] }

/** Lines of a batch validated between two turns of the event loop. */
const YIELD_EVERY_LINES = 100

/** Resolves after the event loop has run what is ready (I/O callbacks included). */
const yieldToEventLoop = () =>
  new Promise<void>((resolve) =>
    typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  )

/**
 * `POST /api/v1/ingest_events/batch`, all or nothing as Logister answers it: 202 when every line
 * is stored (or already was), else 422 with each invalid line's errors, the others
 * `rolled_back`, and nothing stored. A batch that does not fit in the rate-limit window is a
 * whole-request 429 that takes none of it.
 */
export function createBatchIngest(
  deps: BatchIngestDeps,
): (request: EngineRequest) => Promise<EngineResponse> {
  function prepare(line: string, index: number, credential: CredentialRecord, at: Date): Prepared {
    let body: unknown
    try {
      body = JSON.parse(line)
    } catch {
      const error = `${missingEnvelopeMessage('event')} (line ${index + 1} is not valid JSON)`
      return { type: 'event', errors: [error] }
    }
    const parsed = parseEventEnvelope(body, { now: at })
    if (!parsed.ok) {
      return {
        type: peekType(body),
        errors: parsed.status === 400 ? [parsed.error] : parsed.errors,
      }
    }
    const event = parsed.value
    const type = event.event_type === 'span' ? 'span' : 'event'
    if (!event.event_id) return { type, errors: ['event_id (or uuid) is required in a batch'] }
    const op = deps.build(event, credential, at)
    if (!('status' in op)) return { type, op }
    if (op.status === 403) {
      return { type, errors: [`Forbidden: this token may not send ${event.event_type} events`] }
    }
    return { type, errors: (op.body as { errors?: string[] }).errors ?? ['invalid envelope'] }
  }

  return async (request) => {
    const at = deps.now()
    const decoded = await batchLines(request, deps.limits)
    if ('status' in decoded) return decoded
    const admitted = await deps.admit(request, at, decoded.lines.length)
    if ('status' in admitted) return admitted
    const headers = rateLimitHeaders(admitted.rate)
    const batchId = batchIdOf(request.headers, at)
    const lines: Prepared[] = []
    for (const [i, line] of decoded.lines.entries()) {
      // A batch is ~100 µs a line of validation: let the projector and other requests run
      // between slices rather than behind the whole batch (docs/performance.md, "Pace").
      if (i > 0 && i % YIELD_EVERY_LINES === 0) await yieldToEventLoop()
      lines.push(prepare(line, i, admitted.credential, at))
    }
    const types = lines.map((line) => line.type)
    const rejected = new Map<number, readonly string[]>()
    lines.forEach((line, i) => {
      if ('errors' in line) rejected.set(i, line.errors)
    })
    if (rejected.size > 0) return json(422, rejectedBatch(batchId, types, rejected), headers)

    const ops = lines.map((line) => (line as { op: WriteOp }).op)
    const written = await deps.write(ops)
    const known = written.map((r, i) => knownRecord(ops[i] as WriteOp, r))
    known.forEach((k, i) => {
      if (k === 'conflict') rejected.set(i, ['event_id is already used by another project'])
    })
    if (rejected.size > 0) return json(422, rejectedBatch(batchId, types, rejected), headers)
    const results = written.map(
      (r, index): BatchLineResult => ({
        index,
        status: 'accepted',
        type: types[index]!,
        id: r.id,
        legacy_id: r.legacyId,
        duplicate: known[index] === 'duplicate',
      }),
    )
    return json(202, acceptedBatch(batchId, results), headers)
  }
}

/** `span` when the envelope's event type, under any spelling of its key, is `span`. */
function peekType(body: unknown): BatchLineType {
  const root = body as Record<string, unknown> | null
  const envelope = (typeof root === 'object' && root !== null && (root.event ?? root.EVENT)) || {}
  for (const [key, value] of Object.entries(envelope)) {
    if (key.replace(/[_-]/g, '').toLowerCase() === 'eventtype')
      return value === 'span' ? 'span' : 'event'
  }
  return 'event'
}
