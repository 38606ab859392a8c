import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeAlertEvalContract } from './store-contract-alert-eval'
import { describeAlertsContract } from './store-contract-alerts'
import { describeCheckInReadsContract } from './store-contract-check-ins'
import { describeDedupeContract } from './store-contract-dedupe'
import { describeEventsContract } from './store-contract-events'
import { describeExtremesContract } from './store-contract-extremes'
import { describeLogContract } from './store-contract-log'
import { describeManagementContract } from './store-contract-management'
import { describeMobileContract } from './store-contract-mobile'
import { describeMonitorsContract } from './store-contract-monitors'
import { describeReadsContract } from './store-contract-reads'
import { describeReleaseHealthContract } from './store-contract-release-health'
import { describeRetentionContract } from './store-contract-retention'
import { describeSessionsContract } from './store-contract-sessions'
import { describeSourceContract } from './store-contract-source'
import type { StoreFactory, StoreHarness } from './store-probe'

export { acceptAndProject, projectAll, projectRound } from './store-fixtures'
export type {
  CheckInSnapshot,
  DeploymentSnapshot,
  IssueSnapshot,
  LoggedStore,
  MonitorSnapshot,
  ProbeTable,
  StoreFactory,
  StoreHarness,
  StoreProbe,
} from './store-probe'

/**
 * The contract every `IngestStore` adapter passes: management and credential methods, and every
 * rule of acceptance on the ingest log and its projection (grouping, monitors, deployments,
 * results, atomicity, idempotency), the read port (issue
 * inbox, event list, status changes, regressions, a monitor's check-in history) and dashboard
 * sessions. `factory` is called
 * once, before the suite, and must return an empty, migrated store; tests use unique ids, so
 * they share it. The first test checks `hasUsers()` on the empty store, so keep the order.
 *
 * @example
 * ```ts
 * describeStoreContract('pglite', async () => {
 *   const db = await PGlite.create()
 *   const store = createPgliteStore(db)
 *   await store.migrate()
 *   return { store, probe: createProbe(db), close: () => db.close() }
 * })
 * ```
 */
export function describeStoreContract(name: string, factory: StoreFactory): void {
  describe(`IngestStore contract: ${name}`, () => {
    let harness: StoreHarness | undefined
    const h = () => {
      if (!harness) throw new Error('the store factory failed; see beforeAll')
      return harness
    }
    beforeAll(async () => {
      harness = await factory()
    }, 120_000)
    afterAll(async () => {
      await harness?.close()
    })

    it('reports no users on an empty store', async () => {
      expect(await h().store.hasUsers()).toBe(false)
    })

    it('answers the readiness ping', async () => {
      const { store } = h()
      expect(typeof store.ping).toBe('function')
      await expect(store.ping?.()).resolves.toBeUndefined()
    })

    describeManagementContract(h)
    describeMobileContract(h)
    describeEventsContract(h)
    describeDedupeContract(h)
    describeMonitorsContract(h)
    describeReadsContract(h)
    describeCheckInReadsContract(h)
    describeExtremesContract(h)
    describeSourceContract(h)
    describeSessionsContract(h)
    describeLogContract(h)
    describeAlertsContract(h)
    describeAlertEvalContract(h)
    describeRetentionContract(h)
    describeReleaseHealthContract(h)
  })
}
