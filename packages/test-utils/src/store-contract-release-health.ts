import { randomUUID } from 'node:crypto'
import type { AlertDeliveryStore, RetentionStore, WriteOp } from '@tis/ingest'
import { describe, expect, it } from 'vitest'
import { acceptAndProject, seedProject } from './store-fixtures'
import type { LoggedStore, StoreHarness } from './store-probe'

// Release health in the store (issue 34): session records through the log and the projection's
// SQL status machine, the per-minute aggregates and per-hour users the reads sum, the release
// reads themselves and retention. The same on PostgreSQL and PGlite.

type Store = LoggedStore & RetentionStore & AlertDeliveryStore
type SessionRecord = Extract<WriteOp, { type: 'session' }>['session']
type SessionUpdate = Extract<SessionRecord, { kind: 'update' }>
const NOW = new Date('2026-06-01T12:00:00.000Z')
const MIN = 60_000
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * MIN)

const sessionOp = (projectId: string, session: SessionRecord): WriteOp => ({
  type: 'session',
  id: randomUUID(),
  projectId,
  receivedAt: NOW,
  dedupe: false,
  session,
})

const update = (sid: string, over: Partial<SessionUpdate> = {}): SessionRecord => ({
  kind: 'update',
  sid,
  did: null,
  seq: null,
  init: false,
  started: ago(90).toISOString(),
  timestamp: null,
  duration: null,
  status: 'ok',
  errors: 0,
  release: 'app@1',
  environment: 'production',
  ...over,
})

const window = (projectId: string, environment: string | null = null) => ({
  projectId,
  environment,
  since: ago(24 * 60),
  until: NOW,
  adoptionSince: ago(24 * 60),
})

/** Release health over the log and the projection. */
export function describeReleaseHealthContract(h: () => StoreHarness) {
  describe('release health', () => {
    const store = () => h().store as Store
    const send = (projectId: string, ...sessions: SessionRecord[]) =>
      acceptAndProject(
        store(),
        sessions.map((s) => sessionOp(projectId, s)),
      )
    const health = async (projectId: string, environment: string | null = null) =>
      store().findRelease({ ...window(projectId, environment), version: 'app@1' })

    it('merges updates across rounds by the status machine, counting each session once', async () => {
      const { projectId } = await seedProject(store())
      // Round 1: inits, and a terminal update before its init.
      await send(
        projectId,
        update('a', { init: true, did: 'u1' }),
        update('b', { init: true, did: 'u2' }),
        update('c', { init: true, did: 'u3' }),
        update('d', { status: 'abnormal', did: 'u4' }),
      )
      // Round 2: a crash, an errored exit, a repeated init, the late init of d.
      await send(
        projectId,
        update('a', { status: 'crashed', errors: 1, did: 'u1' }),
        update('b', { status: 'exited', errors: 2, did: 'u2' }),
        update('c', { init: true, did: 'u3' }),
        update('d', { init: true, did: 'u4' }),
      )
      // Round 3: after the crash, a later exit changes nothing; c exits healthy.
      await send(
        projectId,
        update('a', { status: 'exited', did: 'u1' }),
        update('c', { status: 'exited', did: 'u3' }),
      )
      expect(await health(projectId)).toMatchObject({
        version: 'app@1',
        sessions: { healthy: 1, errored: 1, abnormal: 1, crashed: 1 },
        users: { total: 4, crashed: 1 },
        adoption: { sessions: 4, ofAll: 4 },
      })
    })

    it('adds aggregates to their minutes and keeps environments apart', async () => {
      const { projectId } = await seedProject(store())
      await send(
        projectId,
        {
          kind: 'aggregate',
          release: 'app@1',
          environment: 'staging',
          buckets: [
            {
              started: ago(30).toISOString(),
              did: null,
              exited: 4,
              errored: 1,
              abnormal: 0,
              crashed: 1,
            },
            {
              started: ago(29).toISOString(),
              did: 'u9',
              exited: 1,
              errored: 0,
              abnormal: 0,
              crashed: 1,
            },
          ],
        },
        update('s', { init: true, status: 'exited' }),
      )
      expect((await health(projectId, 'staging'))?.sessions).toEqual({
        healthy: 5,
        errored: 1,
        abnormal: 0,
        crashed: 2,
      })
      expect((await health(projectId, 'staging'))?.users).toEqual({ total: 1, crashed: 1 })
      expect((await health(projectId))?.sessions.healthy).toBe(6)
      const series = await store().releaseSeries({
        ...window(projectId),
        version: 'app@1',
        bucketSeconds: 3_600,
      })
      expect(series.reduce((n, b) => n + b.sessions, 0)).toBe(9)
      expect(series.reduce((n, b) => n + b.crashed, 0)).toBe(2)
    })

    it('counts the users active in the window only, once each however many hours', async () => {
      const { projectId } = await seedProject(store())
      const started = (minutes: number) => ago(minutes).toISOString()
      await send(
        projectId,
        // u1: 30 hours ago only, outside a 24-hour window; u2: in it twice; u3: crashed in it.
        update('w1', { init: true, started: started(30 * 60), did: 'u1', status: 'crashed' }),
        update('w2', { init: true, started: started(120), did: 'u2', status: 'exited' }),
        update('w3', { init: true, started: started(60), did: 'u2', status: 'exited' }),
        update('w4', { init: true, started: started(10), did: 'u3', status: 'crashed' }),
      )
      expect((await health(projectId))?.users).toEqual({ total: 2, crashed: 1 })
      const twoDays = { ...window(projectId), since: ago(48 * 60), version: 'app@1' }
      expect((await store().findRelease(twoDays))?.users).toEqual({ total: 3, crashed: 2 })
      expect((await store().findRelease(twoDays))?.sessions.crashed).toBe(2)
    })

    it('lists releases seen in the window, newest first, page by page', async () => {
      const { projectId } = await seedProject(store())
      for (const [i, release] of ['r1', 'r2', 'r3'].entries()) {
        await acceptAndProject(store(), [
          {
            ...sessionOp(projectId, update(`s${i}`, { init: true, release })),
            receivedAt: ago(10 - i),
          },
        ])
      }
      const page = await store().listReleases({ ...window(projectId), limit: 2, after: null })
      expect(page.map((r) => r.version)).toEqual(['r3', 'r2'])
      const next = await store().listReleases({
        ...window(projectId),
        limit: 2,
        after: { lastSeenAt: page[1]!.lastSeenAt, version: page[1]!.version },
      })
      expect(next.map((r) => r.version)).toEqual(['r1'])
      expect(await store().findRelease({ ...window(projectId), version: 'never' })).toBeNull()
    })

    it('expires aggregates, users and states older than the cutoff', async () => {
      const { projectId } = await seedProject(store())
      const old = ago(40 * 24 * 60).toISOString()
      await send(
        projectId,
        update('old', { init: true, started: old, did: 'u' }),
        update('new', { init: true, did: 'u' }),
      )
      const report = await store().expireTelemetry({
        now: NOW,
        defaultDays: 30,
        batchSize: 1,
        projectId,
      })
      expect(report.projects[0]?.sessionMinutes).toBe(1)
      const all = { ...window(projectId), since: ago(60 * 24 * 60), version: 'app@1' }
      expect((await store().findRelease(all))?.sessions.healthy).toBe(1)
      // The old session's state went too: its late crash is a session of its own, uncounted.
      await send(projectId, update('old', { started: old, status: 'crashed' }))
      expect((await store().findRelease(all))?.sessions.crashed).toBe(0)
    })
  })
}
