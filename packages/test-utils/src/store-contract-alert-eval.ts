import { randomUUID } from 'node:crypto'
import type { WriteOp } from '@tis/ingest'
import { describe, expect, it } from 'vitest'
import { addChannel, addRule, triggerCounts } from './store-alert-fixtures'
import { describeAlertIssueContract } from './store-contract-alert-issues'
import { describeAlertMonitorContract } from './store-contract-alert-monitors'
import {
  acceptAndProject,
  at,
  checkInOp,
  eventOp,
  monitorUpdate,
  projectAll,
  seedProject,
  uniqueHash,
} from './store-fixtures'
import type { StoreHarness } from './store-probe'

/**
 * Alert evaluation: notifications recorded in the transaction of the projection round that
 * causes them, exactly once.
 */
export function describeAlertEvalContract(h: () => StoreHarness) {
  describe('alert evaluation', () => {
    describeAlertIssueContract(h)
    describeAlertMonitorContract(h)
    describeRetryContract(h)
  })
}

/** A round that fails after its notifications were recorded is rolled back whole. */
function describeRetryContract(h: () => StoreHarness) {
  it('records nothing twice for a round retried after a failure', async () => {
    const { store, probe } = h()
    const { projectId } = await seedProject(store)
    const channelIds = [await addChannel(probe, projectId, 'hooks')]
    for (const trigger of ['new_issue', 'monitor_failed']) {
      await addRule(probe, projectId, { trigger, channelIds })
    }
    const slug = `job-${randomUUID()}`
    const ops: WriteOp[] = [
      eventOp(projectId, { issue: { hash: uniqueHash() } }),
      checkInOp(projectId, monitorUpdate(slug, 'error', at(1))),
    ]
    // The monitor evaluation runs after the issue one: failing it rolls back a round whose
    // new_issue notification was already recorded.
    const fn = `tis_contract_alert_fail_${projectId.replaceAll('-', '')}`
    await probe.exec(`create function ${fn}() returns trigger language plpgsql as
      $$ begin if new.project_id = '${projectId}' then
        raise exception 'alert evaluation failed' using errcode = '40001'; end if;
      return new; end $$`)
    await probe.exec(`create trigger ${fn} before update of alert_state on monitors
      for each row execute function ${fn}()`)
    try {
      await expect(acceptAndProject(store, ops)).rejects.toThrow(/alert evaluation failed/)
      expect(await triggerCounts(probe, projectId)).toEqual({})
    } finally {
      await probe.exec(`drop trigger ${fn} on monitors`)
      await probe.exec(`drop function ${fn}()`)
    }
    // The failed round is still in the log: the next one projects it.
    await projectAll(store)
    await acceptAndProject(store, [checkInOp(projectId, monitorUpdate(slug, 'error', at(2)))])
    expect(await triggerCounts(probe, projectId)).toEqual({ new_issue: 1, monitor_failed: 1 })
  })
}
