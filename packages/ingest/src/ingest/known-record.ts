import type { WriteOp, WriteResult } from '../ports'

/**
 * How an accepted op is answered, from what the store reports: `stored` when it was written,
 * `duplicate` when a record with its id (spans: trace and span ids) already is in the same
 * project (200, the stored record, nothing written), `conflict` when the id belongs to a record
 * of another project (422). The engine decides this, not the storage adapter.
 */
export function knownRecord(op: WriteOp, result: WriteResult): 'stored' | 'duplicate' | 'conflict' {
  if (!result.existing) return 'stored'
  return sameProject(result.existing.projectId, op.projectId) ? 'duplicate' : 'conflict'
}

/** Project ids are UUIDs: compared without regard to case. */
export function sameProject(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
}
