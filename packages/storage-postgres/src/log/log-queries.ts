import type {
  IngestLog,
  LogTarget,
  ProjectionEnricher,
  ProjectionStore,
  WriteOp,
  WriteOptions,
  WriteResult,
} from '@tis/ingest'
import { storedElsewhere } from '../dedupe'
import type { SqlExecutor } from '../executor'
import { type DeploymentOp, writeDeployments } from '../read-model-write'
import { type AppendOutcome, appendToLog } from './append'
import { consumeLog, setAsideHead } from './consume'
import { isLogged, type LoggedOp } from './log-record'
import { maintainLogPartitions } from './partitions'
import {
  atOrAfter,
  consumerLag,
  consumerPosition,
  type LogPosition,
  pendingTarget,
} from './position'
import {
  isRecurringFailure,
  isUniqueViolation,
  PROJECTION,
  projectEntries,
  projectEntriesSkippingStored,
} from './project'

/** Options of {@link createLogQueries}. */
export interface LogQueriesOptions {
  /**
   * Runs on the decoded ops of every projection round, inside the round's transaction and
   * before they are planned (source-map resolution); its look-up reads through that transaction.
   * @default undefined (ops are projected as logged)
   */
  readonly enrich?: ProjectionEnricher | undefined
}

/** Thrown inside an all-or-nothing append to roll it back; carries the answers. */
class RolledBack extends Error {
  constructor(readonly results: readonly WriteResult[]) {
    super('batch rolled back')
  }
}

/**
 * The answer of a logged op from what acceptance found: a repeated idempotency key reports the
 * record stored under it as `existing` (the engine decides duplicate or conflict).
 */
function resultOf(op: LoggedOp, outcome: AppendOutcome): WriteResult {
  const legacy = (seq: number | null) =>
    op.type === 'check_in' || op.type === 'session' ? null : seq
  if (outcome.fresh) return { id: op.id, legacyId: legacy(outcome.seq) }
  const existing = { projectId: outcome.projectId, id: outcome.id, legacyId: legacy(outcome.seq) }
  return { id: existing.id, legacyId: existing.legacyId, existing }
}

/**
 * Most entries the projection's lag counts (readiness, the read barrier's header): the count
 * scans the entries it counts, and it is asked once a second by probes exactly when the backlog is
 * large, so an uncapped or 100,000 count took a quarter of a core from the projection it measured
 * (docs/performance.md). The lag's seconds are exact at any depth.
 */
export const PROJECTION_LAG_CAP = 10_000

const toTarget = (position: LogPosition) => ({ ...position, __logTarget: true }) as LogTarget
const fromTarget = (target: LogTarget): LogPosition => ({
  xid: target['xid'] as string,
  seq: target['seq'] as number,
})

/** Acceptance on the ingest log and the projection behind it, over one executor. */
export function createLogQueries(
  db: SqlExecutor,
  options: LogQueriesOptions = {},
): IngestLog & ProjectionStore {
  const { enrich } = options

  async function append(batch: readonly WriteOp[], write: WriteOptions = {}) {
    const logged: { index: number; op: LoggedOp }[] = []
    const direct: { index: number; op: DeploymentOp }[] = []
    batch.forEach((op, index) => {
      if (isLogged(op)) logged.push({ index, op })
      else direct.push({ index, op })
    })
    // Records only, and no group to roll back: the append statement commits on its own, without
    // a BEGIN and COMMIT around it (two round trips and a reserved connection per batch).
    if (direct.length === 0 && !write.allOrNothing) {
      const outcomes = await appendToLog(db, batch as readonly LoggedOp[])
      return batch.map((op, i) => resultOf(op as LoggedOp, outcomes[i]!))
    }
    try {
      return await db.transaction(async (tx) => {
        const results: WriteResult[] = new Array(batch.length)
        const outcomes = await appendToLog(
          tx,
          logged.map((l) => l.op),
        )
        logged.forEach(({ index, op }, i) => {
          results[index] = resultOf(op, outcomes[i]!)
        })
        if (
          write.allOrNothing &&
          logged.some(({ index, op }) => storedElsewhere(op, results[index]!))
        ) {
          throw new RolledBack(
            batch.map((op, i) => {
              const r = results[i]
              return r?.existing ? r : { id: op.id, legacyId: null }
            }),
          )
        }
        if (direct.length > 0) {
          const written = await writeDeployments(
            tx,
            direct.map((d) => d.op),
          )
          direct.forEach(({ index }, i) => {
            results[index] = written[i]!
          })
        }
        return results
      })
    } catch (error) {
      if (error instanceof RolledBack) return error.results
      throw error
    }
  }

  return {
    append,
    async project(limit) {
      const round = (apply: typeof projectEntries, n = limit) =>
        consumeLog(db, PROJECTION, n, (tx, entries) => apply(tx, entries, enrich))
      try {
        const done = await round(projectEntries)
        return { busy: done.busy, projected: done.consumed, more: done.more }
      } catch (error) {
        if (!isUniqueViolation(error) && !isRecurringFailure(error)) throw error
      }
      // Entry by entry: what is already stored is left out, an entry that fails on its own
      // every time is set aside with its error, and the rest is projected.
      let projected = 0
      for (let i = 0; i < limit; i++) {
        try {
          const one = await round(projectEntriesSkippingStored, 1)
          if (one.busy || one.consumed === 0) return { busy: one.busy, projected, more: false }
          projected += one.consumed
        } catch (error) {
          if (!isRecurringFailure(error)) throw error
          await setAsideHead(db, PROJECTION, String(error))
        }
      }
      return { busy: false, projected, more: true }
    },
    async pendingTarget() {
      const target = await pendingTarget(db, PROJECTION)
      return target ? toTarget(target) : null
    },
    async hasProjected(target) {
      const position = await consumerPosition(db, PROJECTION)
      return position !== null && atOrAfter(position, fromTarget(target))
    },
    projectionLag: () => consumerLag(db, PROJECTION, PROJECTION_LAG_CAP),
    maintainLog: (now) => maintainLogPartitions(db, now),
  }
}
