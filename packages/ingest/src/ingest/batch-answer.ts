import { type HeaderSource, readHeader } from '../http'
import { uuidv7 } from '../ids'

/** Whether a batch line holds a span (stored apart) or another event, as Logister names it. */
export type BatchLineType = 'event' | 'span'

/** The answer for one line of a batch, in line order (Logister's per-envelope result). */
export type BatchLineResult =
  | {
      readonly index: number
      readonly status: 'accepted'
      readonly type: BatchLineType
      readonly id: string
      readonly legacy_id: number | null
      /** The record was already stored: nothing was written for this line. */
      readonly duplicate: boolean
    }
  | {
      readonly index: number
      /** `rejected`: this line is invalid; `rolled_back`: valid, but another line was not. */
      readonly status: 'rejected' | 'rolled_back'
      readonly type: BatchLineType
      readonly errors: readonly string[]
    }

/** 202 body: every line is stored or already was. */
export interface BatchAcceptedBody {
  readonly schema_version: 1
  readonly batch_id: string
  readonly status: 'accepted'
  /** Lines accepted, duplicates included (all of them). */
  readonly accepted: number
  /** Of those, lines whose record was already stored. */
  readonly duplicates: number
  readonly results: readonly BatchLineResult[]
}

/** 422 body: at least one line is invalid, so nothing was stored. */
export interface BatchRejectedBody {
  readonly schema_version: 1
  readonly batch_id: string
  readonly status: 'rejected'
  /** Lines refused for their own content (tis's addition to Logister's body). */
  readonly rejected: number
  /** Valid lines not stored because of the others (tis's addition). */
  readonly rolled_back: number
  readonly results: readonly BatchLineResult[]
}

/** The error of a valid line in a rejected batch: Logister's own wording. */
export const ROLLED_BACK_MESSAGE = 'Batch was rolled back because another envelope was invalid'

const BATCH_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * The batch's id: the client's `X-Logister-Batch-Id` when it is 1 to 128 letters, digits or
 * `._:-` (Logister's clients send a SHA-256 hex digest), else a new UUID v7.
 */
export function batchIdOf(headers: HeaderSource, at: Date): string {
  const sent = readHeader(headers, 'x-logister-batch-id')?.trim()
  return sent !== undefined && BATCH_ID.test(sent) ? sent : uuidv7(at.getTime())
}

/** The 202 body for lines that were all accepted. */
export function acceptedBatch(
  batchId: string,
  results: readonly BatchLineResult[],
): BatchAcceptedBody {
  return {
    schema_version: 1,
    batch_id: batchId,
    status: 'accepted',
    accepted: results.length,
    duplicates: results.filter((r) => r.status === 'accepted' && r.duplicate).length,
    results,
  }
}

/**
 * The 422 body: the lines in `rejected` (by index) keep their own errors; every other line is
 * `rolled_back`.
 */
export function rejectedBatch(
  batchId: string,
  types: readonly BatchLineType[],
  rejected: ReadonlyMap<number, readonly string[]>,
): BatchRejectedBody {
  const results = types.map((type, index): BatchLineResult => {
    const errors = rejected.get(index)
    return errors
      ? { index, status: 'rejected', type, errors }
      : { index, status: 'rolled_back', type, errors: [ROLLED_BACK_MESSAGE] }
  })
  return {
    schema_version: 1,
    batch_id: batchId,
    status: 'rejected',
    rejected: rejected.size,
    rolled_back: results.length - rejected.size,
    results,
  }
}
