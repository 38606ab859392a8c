import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  acceptAndProject,
  at,
  checkInOp,
  deploymentOp,
  eventOp,
  monitorUpdate,
  seedProject,
} from './store-fixtures'
import type { StoreHarness } from './store-probe'

const ENV = 'production'

/** Acceptance and projection: monitors with their check-in history, and deployments. */
export function describeMonitorsContract(h: () => StoreHarness) {
  describe('monitors', () => {
    it('follows health ok → error → ok; other statuses leave it', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const slug = `nightly-${randomUUID()}`
      const steps: Array<[string, 'ok' | 'error' | null]> = [
        ['in_progress', null],
        ['ok', 'ok'],
        ['error', 'error'],
        ['in_progress', 'error'],
        ['ok', 'ok'],
        ['skipped', 'ok'],
      ]
      for (const [i, [status, health]] of steps.entries()) {
        await acceptAndProject(store, [checkInOp(projectId, monitorUpdate(slug, status, at(i)))])
        expect(await probe.monitor(projectId, slug, ENV), `${i}: ${status}`).toMatchObject({
          status: health,
          lastStatus: status,
          checkInCount: i + 1,
        })
      }
    })

    it('aggregates several check-ins of one batch; the newest sets last_* and health', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const slug = `job-${randomUUID()}`
      const m = (status: string, s: number, release: string | null) =>
        monitorUpdate(slug, status, at(s), {
          release,
          durationMs: s * 10,
          expectedIntervalSeconds: 60 + s,
        })
      await acceptAndProject(store, [
        checkInOp(projectId, m('ok', 30, 'v3')),
        checkInOp(projectId, m('error', 10, 'v1')),
        checkInOp(projectId, m('running', 40, null)),
      ])
      expect(await probe.monitor(projectId, slug, ENV)).toMatchObject({
        status: 'ok',
        lastStatus: 'running',
        lastCheckInAt: at(40),
        lastRelease: 'v3',
        lastDurationMs: 400,
        expectedIntervalSeconds: 100,
        checkInCount: 3,
      })
      // A late error (older than the stored ok) neither changes health nor last_*.
      await acceptAndProject(store, [checkInOp(projectId, m('error', 20, 'v2'))])
      expect(await probe.monitor(projectId, slug, ENV)).toMatchObject({
        status: 'ok',
        lastStatus: 'running',
        lastRelease: 'v3',
        checkInCount: 4,
      })
    })

    it('keeps monitors apart per environment; check_in events update them and the history', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const slug = `sync-${randomUUID()}`
      const staging = monitorUpdate(slug, 'error', at(2), { environment: 'staging' })
      const viaEvent = eventOp(projectId, { monitor: monitorUpdate(slug, 'error', at(3)) })
      await acceptAndProject(store, [
        checkInOp(projectId, monitorUpdate(slug, 'ok', at(1))),
        viaEvent,
      ])
      await acceptAndProject(store, [checkInOp(projectId, staging)])
      expect(await probe.monitor(projectId, slug, ENV)).toMatchObject({
        status: 'error',
        checkInCount: 2,
      })
      expect(await probe.monitor(projectId, slug, 'staging')).toMatchObject({ checkInCount: 1 })
      expect(await probe.checkIns(projectId, slug, ENV)).toEqual([
        { status: 'ok', source: 'check_in', eventId: null },
        { status: 'error', source: 'event', eventId: viaEvent.id },
      ])
      expect(await probe.count('events', projectId)).toBe(1)
    })

    it('handles 1,024-character slugs and environments of multi-byte characters', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const slug = `${randomUUID()}${'ß'.repeat(988)}`
      const environment = '環'.repeat(1_024)
      const update = monitorUpdate(slug, 'ok', at(1), { environment })
      await acceptAndProject(store, [checkInOp(projectId, update)])
      await acceptAndProject(store, [checkInOp(projectId, { ...update, occurredAt: at(2) })])
      expect(await probe.monitor(projectId, slug, environment)).toMatchObject({ checkInCount: 2 })
    })
  })

  describe('deployments', () => {
    const repo = () => `acme/${randomUUID()}`

    it('re-posting a deployment overwrites it and returns the same id and legacy id', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const key = { repository: repo(), release: '1.0.0' }
      const [first] = await acceptAndProject(store, [
        deploymentOp(projectId, { ...key, commitSha: 'aaaaaaa' }),
      ])
      const again = deploymentOp(projectId, { ...key, commitSha: 'bbbbbbb', branch: 'main' })
      const [second] = await acceptAndProject(store, [again])
      expect(second).toEqual(first)
      expect(second?.id).not.toBe(again.id)
      expect(await probe.deployment(projectId, key.repository, ENV, key.release)).toEqual({
        id: first?.id,
        legacyId: first?.legacyId,
        commitSha: 'bbbbbbb',
        branch: 'main',
        source: 'api',
      })
    })

    it('keeps deployments apart per environment and release', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const repository = repo()
      const results = await acceptAndProject(store, [
        deploymentOp(projectId, { repository, release: '1', commitSha: 'aaaaaaa' }),
        deploymentOp(projectId, { repository, release: '2', commitSha: 'aaaaaaa' }),
        deploymentOp(projectId, {
          repository,
          release: '1',
          commitSha: 'aaaaaaa',
          environment: 'staging',
        }),
      ])
      expect(new Set(results.map((r) => r.id)).size).toBe(3)
      expect(await probe.count('deployments', projectId)).toBe(3)
    })

    it('gives every op of one key in a batch the same record; the last api op wins', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const key = { repository: repo(), release: '2.0.0' }
      const results = await acceptAndProject(store, [
        deploymentOp(projectId, { ...key, commitSha: 'aaaaaaa' }),
        deploymentOp(projectId, { ...key, commitSha: 'ccccccc' }),
      ])
      expect(results[1]).toEqual(results[0])
      const stored = await probe.deployment(projectId, key.repository, ENV, key.release)
      expect(stored).toMatchObject({ id: results[0]?.id, commitSha: 'ccccccc' })
    })

    it('an event-derived deployment fills an unknown key but never overwrites', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const key = { repository: repo(), environment: ENV, release: '3.0.0' }
      await acceptAndProject(store, [
        eventOp(projectId, { deployment: { ...key, commitSha: 'eeeeeee' } }),
      ])
      const fromEvent = await probe.deployment(projectId, key.repository, ENV, key.release)
      expect(fromEvent).toMatchObject({ commitSha: 'eeeeeee', source: 'event' })

      // An api post overwrites the event-derived record, keeping its id.
      const [api] = await acceptAndProject(store, [
        deploymentOp(projectId, { ...key, commitSha: 'aaaaaaa' }),
      ])
      expect(api).toEqual({ id: fromEvent?.id, legacyId: fromEvent?.legacyId })

      // Later events, before or after an api op in the same batch, leave the api record.
      await acceptAndProject(store, [
        eventOp(projectId, { deployment: { ...key, commitSha: 'fffffff' } }),
        deploymentOp(projectId, { ...key, commitSha: 'bbbbbbb' }),
        eventOp(projectId, { deployment: { ...key, commitSha: '1111111' } }),
      ])
      expect(await probe.deployment(projectId, key.repository, ENV, key.release)).toMatchObject({
        id: fromEvent?.id,
        commitSha: 'bbbbbbb',
        source: 'api',
      })
      expect(await probe.count('deployments', projectId)).toBe(1)
    })
  })
}
