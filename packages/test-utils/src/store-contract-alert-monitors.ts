import { randomUUID } from 'node:crypto'
import type { AlertDeliveryStore } from '@tis/ingest'
import { expect, it } from 'vitest'
import { addChannel, addRule, deliveries, triggerCounts } from './store-alert-fixtures'
import { acceptAndProject, checkInOp, monitorUpdate, seedProject } from './store-fixtures'
import type { StoreHarness } from './store-probe'

type MissedScan = Pick<AlertDeliveryStore, 'markMissedMonitors'>

/** A time `seconds` after an origin before every other suite's monitors (2026-01-01). */
const early = (seconds: number) => new Date(Date.UTC(2020, 0, 1, 0, 0, seconds))

/** Monitor triggers: failed and recovered on check-ins, missed by the scheduler's scan. */
export function describeAlertMonitorContract(h: () => StoreHarness) {
  const rules = async (probe: StoreHarness['probe'], projectId: string, environment?: string) => {
    const channelIds = [await addChannel(probe, projectId, 'hooks')]
    for (const trigger of ['monitor_failed', 'monitor_recovered', 'monitor_missed']) {
      await addRule(probe, projectId, {
        trigger,
        channelIds,
        ...(environment ? { environment } : {}),
      })
    }
  }

  it('monitor ok → error → error → ok: one failed, one recovered', async () => {
    const { store, probe } = h()
    const { projectId } = await seedProject(store)
    await rules(probe, projectId)
    const slug = `job-${randomUUID()}`
    const steps = ['ok', 'error', 'in_progress', 'error', 'ok', 'ok']
    for (const [i, status] of steps.entries()) {
      await acceptAndProject(store, [checkInOp(projectId, monitorUpdate(slug, status, early(i)))])
    }
    const recorded = await deliveries(probe, projectId)
    expect(recorded.map((d) => d.trigger)).toEqual(['monitor_failed', 'monitor_recovered'])
    const monitor = await probe.monitor(projectId, slug, 'production')
    expect(recorded[0]?.payload).toEqual({
      monitor: {
        id: monitor?.id,
        slug,
        environment: 'production',
        state: 'error',
        last_status: 'error',
        last_check_in_at: early(1).toISOString(),
        expected_interval_seconds: 300,
      },
    })
    expect(recorded[1]?.payload.monitor).toMatchObject({ state: 'ok', last_status: 'ok' })
  })

  it('keeps a rule quiet for one monitor during its quiet period, not for another', async () => {
    const { store, probe } = h()
    const { projectId } = await seedProject(store)
    const channelIds = [await addChannel(probe, projectId, 'hooks')]
    await addRule(probe, projectId, { trigger: 'monitor_failed', channelIds, quietSeconds: 3600 })
    const [one, two] = [`a-${randomUUID()}`, `b-${randomUUID()}`]
    for (const [i, status] of ['error', 'ok', 'error'].entries()) {
      await acceptAndProject(store, [checkInOp(projectId, monitorUpdate(one, status, early(i)))])
    }
    await acceptAndProject(store, [checkInOp(projectId, monitorUpdate(two, 'error', early(5)))])
    const recorded = await deliveries(probe, projectId)
    expect(recorded.map((d) => d.payload.monitor?.slug)).toEqual([one, two])
  })

  it('filters monitor rules by the monitor environment', async () => {
    const { store, probe } = h()
    const { projectId } = await seedProject(store)
    await rules(probe, projectId, 'staging')
    const slug = `job-${randomUUID()}`
    await acceptAndProject(store, [checkInOp(projectId, monitorUpdate(slug, 'error', early(1)))])
    expect(await deliveries(probe, projectId)).toEqual([])
    const staging = monitorUpdate(slug, 'error', early(2), { environment: 'staging' })
    await acceptAndProject(store, [checkInOp(projectId, staging)])
    expect(await triggerCounts(probe, projectId)).toEqual({ monitor_failed: 1 })
  })

  it('marks a monitor missed once its deadline passed, once, in its history, then recovers', async () => {
    const { store, probe } = h()
    const scan = store as unknown as MissedScan
    const { projectId } = await seedProject(store)
    await rules(probe, projectId)
    const slug = `job-${randomUUID()}`
    const update = { expectedIntervalSeconds: 60 }
    await acceptAndProject(store, [
      checkInOp(projectId, monitorUpdate(slug, 'ok', early(0), update)),
    ])
    // Deadline: 0 + 60 + max(60 / 2, 30) = 90 s.
    await scan.markMissedMonitors(early(89), 1000)
    await scan.markMissedMonitors(early(90), 1000)
    expect(await deliveries(probe, projectId)).toEqual([])
    expect(await scan.markMissedMonitors(early(91), 1000)).toBeGreaterThanOrEqual(1)
    // Two more scans, at once where the store allows it: nothing moves twice.
    await Promise.all([
      scan.markMissedMonitors(early(92), 1000),
      scan.markMissedMonitors(early(93), 1000),
    ])
    const recorded = await deliveries(probe, projectId)
    expect(recorded.map((d) => d.trigger)).toEqual(['monitor_missed'])
    expect(recorded[0]?.payload.monitor).toMatchObject({
      slug,
      state: 'missed',
      last_status: 'ok',
      last_check_in_at: early(0).toISOString(),
      expected_interval_seconds: 60,
      missed_after: early(90).toISOString(),
    })
    expect(await probe.checkIns(projectId, slug, 'production')).toEqual([
      { status: 'ok', source: 'check_in', eventId: null },
      { status: 'missed', source: 'scheduler', eventId: null },
    ])
    const [history] = await probe.query<{ occurred_at: Date; received_at: Date }>(
      `select c.occurred_at, c.received_at from check_ins c join monitors m on m.id = c.monitor_id
        where m.project_id = $1::uuid and c.source = 'scheduler'`,
      [projectId],
    )
    expect(history).toEqual({ occurred_at: early(90), received_at: early(91) })
    // Starting again is not recovering: only an `ok` is.
    const running = monitorUpdate(slug, 'in_progress', early(95), update)
    await acceptAndProject(store, [checkInOp(projectId, running)])
    expect(await triggerCounts(probe, projectId)).toEqual({ monitor_missed: 1 })
    await acceptAndProject(store, [
      checkInOp(projectId, monitorUpdate(slug, 'ok', early(100), update)),
    ])
    expect(await triggerCounts(probe, projectId)).toEqual({
      monitor_missed: 1,
      monitor_recovered: 1,
    })
  })
}
