import {
  type BatchAccepted,
  type BatchLineResult,
  type BatchRejected,
  ROLLED_BACK_MESSAGE,
} from '@tis/schema'
import { type HeaderSource, readHeader } from '../http'
import { uuidv7 } from '../ids'

/** Whether a batch line holds a span (stored apart) or another event, as Logister names it. */
export type BatchLineType = BatchLineResult['type']

/** 202 body: every line is stored or already was (`BatchAccepted` of `@tis/schema`). */
export type BatchAcceptedBody = BatchAccepted

/** 422 body: at least one line is invalid, so nothing was stored (`BatchRejected`). */
export type BatchRejectedBody = BatchRejected

export type { BatchLineResult }
export { ROLLED_BACK_MESSAGE }

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
    results: [...results],
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
      ? { index, status: 'rejected', type, errors: [...errors] }
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
