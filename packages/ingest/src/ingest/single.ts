import type { ParseResult } from '@tis/schema'
import { type EngineRequest, type EngineResponse, json } from '../http'
import type { CredentialRecord, WriteOp, WriteResult } from '../ports'
import { rateLimitHeaders } from '../rate-limit'
import type { Admit, IngestEndpoint } from './admission'
import { knownRecord } from './known-record'
import { parseBody } from './request-body'

/** One single-record endpoint: its counter, envelope key and how a body becomes a write. */
export interface SingleRecordEndpoint<T> {
  readonly endpoint: IngestEndpoint
  /** The root key of the body (`event`, `check_in`, `deployment`): named in its 400s. */
  readonly envelope: string
  /** Validates the parsed body for the credential. */
  parse(body: unknown, at: Date, credential: CredentialRecord): ParseResult<T>
  /** The write of the valid value, or its refusal (403, 422). */
  build(value: T, credential: CredentialRecord, at: Date): WriteOp | EngineResponse
  /** The body of the 201 (and, with `duplicate: true`, of the 200). */
  respond(op: WriteOp, id: string, legacyId: number | null): object
}

/** What {@link createSingleRecordAcceptance} runs with. */
export interface SingleRecordDeps {
  readonly admit: Admit
  /** Writes one record durably (the group commit): resolves once it is committed. */
  readonly write: (op: WriteOp) => Promise<WriteResult>
  readonly now: () => Date
  /** Largest body once decompressed, for the 413's message. */
  readonly maxBodyBytes: number
}

/**
 * The path of one record (`POST /api/v1/ingest_events`, `/check_ins`, `/deployments`): admit,
 * parse, build the write, write it durably, answer 201 — or 200 for a repeat, 422 for another
 * project's id. Every answer after admission carries the rate-limit headers.
 */
export function createSingleRecordAcceptance(deps: SingleRecordDeps) {
  return async <T>(
    spec: SingleRecordEndpoint<T>,
    request: EngineRequest,
  ): Promise<EngineResponse> => {
    const at = deps.now()
    const admitted = await deps.admit(spec.endpoint, request, at)
    if ('status' in admitted) return admitted
    const headers = rateLimitHeaders(admitted.rate)
    const body = await parseBody(request, spec.envelope, deps.maxBodyBytes)
    if ('status' in body) return { ...body, headers }
    const parsed = spec.parse(body.value, at, admitted.credential)
    if (!parsed.ok) {
      return parsed.status === 400
        ? json(400, { error: parsed.error }, headers)
        : json(422, { errors: parsed.errors }, headers)
    }
    const op = spec.build(parsed.value, admitted.credential, at)
    if ('status' in op) return { ...op, headers: { ...op.headers, ...headers } }
    const result = await deps.write(op)
    const known = knownRecord(op, result)
    if (known === 'conflict') {
      return json(422, { errors: ['event_id is already used by another project'] }, headers)
    }
    if (known === 'duplicate') {
      return json(
        200,
        { ...spec.respond(op, result.id, result.legacyId), duplicate: true },
        headers,
      )
    }
    return json(201, spec.respond(op, result.id, result.legacyId), headers)
  }
}
