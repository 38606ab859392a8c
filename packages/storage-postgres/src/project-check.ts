import { StoreError, type WriteOp } from '@tis/ingest'
import type { SqlExecutor } from './executor'

const COUNT_MISSING = /* sql */ `
select count(*)::int as n from unnest($1::uuid[]) u(id)
 where not exists (select 1 from projects p where p.id = u.id)`

/** The error of a write naming a project that does not exist (direct writes and the log's append). */
export const unknownProject = () =>
  new StoreError('not_found', 'the batch names a project that does not exist')

/**
 * Rejects a direct write whose events or spans name a project that does not exist. Their tables
 * have no foreign key to `projects` since migration 14 (the projection, their only writer in the
 * server, takes entries the ingest log checked at acceptance), so `writeBatch` checks once per
 * batch what the foreign keys checked once per row. Check-ins, monitors, deployments and issues
 * keep their foreign keys.
 */
export async function assertProjectsExist(tx: SqlExecutor, ops: readonly WriteOp[]) {
  const ids = new Set<string>()
  for (const op of ops) {
    if (op.type === 'event' || op.type === 'span') ids.add(op.projectId.toLowerCase())
  }
  if (ids.size === 0) return
  const [missing] = await tx.query<{ n: number }>(COUNT_MISSING, [[...ids]])
  if ((missing?.n ?? 0) > 0) {
    throw unknownProject()
  }
}
