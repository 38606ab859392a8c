import { randomUUID } from 'node:crypto'
import type { IngestStore, MonitorUpdate, WriteOp } from '@tis/ingest'
import { describe, expect, it } from 'vitest'
import {
  acceptAndProject,
  at,
  checkInOp,
  eventOp,
  monitorUpdate,
  seedProject,
} from './store-fixtures'
import type { StoreHarness } from './store-probe'

type CheckInOp = Extract<WriteOp, { type: 'check_in' }>

/** A compact check-in op whose payload also carries fields section 2.3 does not define. */
function compactWithExtras(projectId: string, m: MonitorUpdate, extras: Record<string, unknown>) {
  const op = checkInOp(projectId, m) as CheckInOp
  return { ...op, checkIn: { ...op.checkIn, ...extras } }
}

/** The id of the monitor of `slug` in production. */
async function monitorId(store: IngestStore, projectId: string, slug: string) {
  const [monitor] = await store.listMonitors({
    projectId,
    slug,
    environment: 'production',
    limit: 2,
  })
  if (!monitor) throw new Error(`no monitor ${slug}`)
  return monitor.id
}

/** The read port of a monitor's history: one monitor, its check-ins, filters and keyset pages. */
export function describeCheckInReadsContract(h: () => StoreHarness) {
  describe('check-in history reads', () => {
    it('finds a monitor only within its project, and lists monitors by slug', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const other = await seedProject(store)
      const slug = `find-${randomUUID()}`
      await acceptAndProject(store, [
        checkInOp(projectId, monitorUpdate(slug, 'ok', at(1))),
        checkInOp(projectId, monitorUpdate(slug, 'error', at(2), { environment: 'staging' })),
        checkInOp(projectId, monitorUpdate(`other-${slug}`, 'ok', at(3))),
      ])
      const bySlug = await store.listMonitors({ projectId, slug, limit: 10 })
      expect(bySlug.map((m) => m.environment)).toEqual(['staging', 'production'])
      const id = await monitorId(store, projectId, slug)
      expect(await store.findMonitor(projectId, id)).toEqual(
        bySlug.find((m) => m.environment === 'production'),
      )
      expect(await store.findMonitor(other.projectId, id)).toBeNull()
      expect(await store.findMonitor(projectId, randomUUID())).toBeNull()
      expect(await store.findMonitor(projectId, 'not-a-uuid')).toBeNull()
    })

    it('lists both sources newest first with their stored fields and payloads', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const slug = `history-${randomUUID()}`
      const compact = compactWithExtras(
        projectId,
        monitorUpdate(slug, 'ok', at(10), {
          release: 'v1',
          durationMs: 1250.5,
          traceId: 'trace-1',
          requestId: 'req-1',
        }),
        { context: { host: 'worker-1' }, checked_at: '2026-01-01T00:00:10Z' },
      )
      const viaEvent = eventOp(projectId, {
        monitor: monitorUpdate(slug, 'error', at(20), { release: 'v2' }),
        event: { message: 'job failed', context: { check_in_slug: slug, attempt: 3 } },
      })
      await acceptAndProject(store, [compact, viaEvent])
      // Another environment's monitor of the same slug is another history.
      await acceptAndProject(store, [
        checkInOp(projectId, monitorUpdate(slug, 'ok', at(30), { environment: 'staging' })),
      ])
      const id = await monitorId(store, projectId, slug)
      const rows = await store.listCheckIns({ projectId, monitorId: id, limit: 10 })
      expect(rows).toHaveLength(2)
      expect(rows[0]).toMatchObject({
        status: 'error',
        occurredAt: at(20),
        receivedAt: viaEvent.receivedAt,
        environment: 'production',
        release: 'v2',
        durationMs: null,
        traceId: null,
        source: 'event',
        eventId: viaEvent.id,
        payload: { message: 'job failed', context: { check_in_slug: slug, attempt: 3 } },
      })
      expect(rows[0]!.id).not.toBe(viaEvent.id)
      expect(rows[1]).toEqual({
        id: compact.id,
        status: 'ok',
        occurredAt: at(10),
        receivedAt: compact.receivedAt,
        durationMs: 1250.5,
        environment: 'production',
        release: 'v1',
        traceId: 'trace-1',
        requestId: 'req-1',
        source: 'check_in',
        eventId: null,
        payload: JSON.parse(JSON.stringify(compact.checkIn)),
      })
      // The project is part of the key: another project's reader sees nothing.
      const other = await seedProject(store)
      expect(
        await store.listCheckIns({ projectId: other.projectId, monitorId: id, limit: 10 }),
      ).toEqual([])
    })

    it('pages by (occurred_at desc, id desc) without repeats or gaps when times tie', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const slug = `ties-${randomUUID()}`
      await acceptAndProject(
        store,
        [0, 1, 1, 1, 2, 2, 3].map((s) => checkInOp(projectId, monitorUpdate(slug, 'ok', at(s)))),
      )
      const id = await monitorId(store, projectId, slug)
      const all = await store.listCheckIns({ projectId, monitorId: id, limit: 100 })
      const keys = all.map((c) => [c.occurredAt.getTime(), c.id] as const)
      const sorted = [...keys].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? 1 : -1))
      expect(keys).toEqual(sorted)
      const paged: string[] = []
      let after: { at: Date; id: string } | undefined
      for (;;) {
        const page = await store.listCheckIns({
          projectId,
          monitorId: id,
          limit: 2,
          ...(after ? { after } : {}),
        })
        paged.push(...page.map((c) => c.id))
        const last = page.at(-1)
        if (page.length < 2 || !last) break
        after = { at: last.occurredAt, id: last.id }
      }
      expect(paged).toEqual(all.map((c) => c.id))
    })

    it('filters by status as sent and by [since, until) on occurred_at', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const slug = `filters-${randomUUID()}`
      const steps: Array<[string, number]> = [
        ['ok', 1],
        ['in_progress', 2],
        ['error', 3],
        ['ok', 4],
        ['ok', 5],
      ]
      await acceptAndProject(
        store,
        steps.map(([status, s]) => checkInOp(projectId, monitorUpdate(slug, status, at(s)))),
      )
      const id = await monitorId(store, projectId, slug)
      const times = async (q: { status?: string; since?: Date; until?: Date }) =>
        (await store.listCheckIns({ projectId, monitorId: id, limit: 10, ...q })).map(
          (c) => c.occurredAt.getTime() / 1000 - at(0).getTime() / 1000,
        )
      expect(await times({ status: 'ok' })).toEqual([5, 4, 1])
      expect(await times({ status: 'in_progress' })).toEqual([2])
      expect(await times({ status: 'OK' })).toEqual([])
      expect(await times({ since: at(2), until: at(4) })).toEqual([3, 2])
      expect(await times({ status: 'ok', since: at(4) })).toEqual([5, 4])
    })
  })
}
