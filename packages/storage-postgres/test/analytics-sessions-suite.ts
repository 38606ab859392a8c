import { randomUUID } from 'node:crypto'
import type { OutboxClaim, OutboxSessionMinuteRow, WriteOp } from '@tis/ingest'
import type { SessionAggregate, SessionUpdate } from '@tis/schema'
import { projectAll } from '@tis/test-utils/store-contract'
import { seedProject } from '@tis/test-utils/store-fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PostgresIngestStore } from '../src/index'

/** A database whose analytics store is enabled, and SQL on it. */
export interface AnalyticsSessionStores {
  readonly store: PostgresIngestStore
  query<T>(text: string, params?: readonly string[]): Promise<T[]>
  close(): Promise<void>
}

const LONG = 60_000
const MINUTE = '2026-01-01T10:00:00.000Z'
const NEXT_MINUTE = '2026-01-01T10:01:00.000Z'

const sessionOp = (projectId: string, session: SessionUpdate | SessionAggregate): WriteOp => ({
  type: 'session',
  id: randomUUID(),
  projectId,
  receivedAt: new Date(),
  dedupe: false,
  session,
})

const update = (sid: string, state: Partial<SessionUpdate> = {}): SessionUpdate => ({
  kind: 'update',
  sid,
  did: null,
  seq: null,
  init: true,
  started: '2026-01-01T10:00:12.000Z',
  timestamp: null,
  duration: null,
  status: 'ok',
  errors: 0,
  release: 'shop@1.0.0',
  environment: 'production',
  ...state,
})

type Counts = Pick<OutboxSessionMinuteRow, 'healthy' | 'errored' | 'abnormal' | 'crashed'>
const counts = (healthy: number, errored: number, abnormal: number, crashed: number): Counts => ({
  healthy,
  errored,
  abnormal,
  crashed,
})

const minutesOf = (claim: OutboxClaim) =>
  claim.records.flatMap((r) => (r.kind === 'session_minute' ? [r.row] : []))

/**
 * The analytics export of release health, on one driver: each session entry of a claimed range
 * exports the current `session_minutes` rows of the minutes it touched, with a version that a
 * later read never lowers.
 */
export function describeAnalyticsSessions(
  name: string,
  factory: () => Promise<AnalyticsSessionStores>,
) {
  describe(`${name} analytics export of session minutes`, () => {
    let stores: AnalyticsSessionStores
    beforeAll(async () => {
      stores = await factory()
    }, 60_000)
    afterAll(() => stores?.close())

    /** Projects and exports everything (tests share one database). */
    async function drain() {
      await projectAll(stores.store)
      for (;;) {
        const claim = await stores.store.outbox.claim(1000, LONG)
        if (claim.records.length === 0) return
        await stores.store.outbox.complete(claim)
      }
    }

    async function claimProjected(ops: WriteOp[]) {
      await stores.store.append(ops)
      await projectAll(stores.store)
      return stores.store.outbox.claim(1000, LONG)
    }

    const stored = (projectId: string) =>
      stores.query<{ release: string; environment: string; minute: Date } & Counts>(
        `select release, environment, minute, healthy, errored, abnormal, crashed
           from session_minutes where project_id = $1 order by release, environment, minute`,
        [projectId],
      )

    it("exports an update's minute as session_minutes holds it, and again when a crash moves it", async () => {
      await drain()
      const { projectId } = await seedProject(stores.store)
      const first = await claimProjected([
        sessionOp(projectId, update('a')),
        sessionOp(projectId, update('b')),
      ])
      // Two entries touched one minute: exported once, at the later entry.
      expect(first.records.map((r) => r.kind)).toEqual(['session_minute'])
      const [row] = minutesOf(first)
      expect(row).toMatchObject({
        project_id: projectId,
        release: 'shop@1.0.0',
        environment: 'production',
        ...counts(2, 0, 0, 0),
      })
      expect(Date.parse(row!.minute)).toBe(Date.parse(MINUTE))
      expect(first.records[0]!.attempts).toBe(0)
      await stores.store.outbox.complete(first)

      // The crash names another release: the session stays where it started.
      const crash = await claimProjected([
        sessionOp(projectId, update('a', { init: false, status: 'crashed', release: 'x@2' })),
      ])
      const [moved] = minutesOf(crash)
      expect(moved).toMatchObject({ release: 'shop@1.0.0', ...counts(1, 0, 0, 1) })
      expect(BigInt(moved!.version)).toBeGreaterThan(BigInt(row!.version))
      expect(await stored(projectId)).toEqual([
        expect.objectContaining({ release: 'shop@1.0.0', ...counts(1, 0, 0, 1) }),
      ])
      await stores.store.outbox.complete(crash)
    })

    it("exports each bucket's minute of an aggregate under the op's release and environment", async () => {
      await drain()
      const { projectId } = await seedProject(stores.store)
      const aggregate: SessionAggregate = {
        kind: 'aggregate',
        release: 'api@3',
        environment: 'staging',
        buckets: [
          { started: MINUTE, did: null, exited: 5, errored: 2, abnormal: 0, crashed: 1 },
          { started: NEXT_MINUTE, did: 'u1', exited: 1, errored: 0, abnormal: 1, crashed: 0 },
        ],
      }
      const claim = await claimProjected([
        sessionOp(projectId, update('c', { release: 'api@3', environment: 'staging' })),
        sessionOp(projectId, aggregate),
      ])
      const rows = minutesOf(claim).map((r) => ({
        release: r.release,
        environment: r.environment,
        minute: new Date(r.minute),
        healthy: r.healthy,
        errored: r.errored,
        abnormal: r.abnormal,
        crashed: r.crashed,
      }))
      expect(rows).toHaveLength(2)
      expect(rows).toEqual(
        expect.arrayContaining([
          {
            release: 'api@3',
            environment: 'staging',
            minute: new Date(MINUTE),
            ...counts(6, 2, 0, 1),
          },
          {
            release: 'api@3',
            environment: 'staging',
            minute: new Date(NEXT_MINUTE),
            ...counts(1, 0, 1, 0),
          },
        ]),
      )
      expect(rows).toEqual(
        expect.arrayContaining(
          (await stored(projectId)).map((r) => ({ ...r, minute: new Date(r.minute) })),
        ),
      )
      await stores.store.outbox.complete(claim)
    })

    it('passes a session entry with no counted minute, and re-reads the counts on a retry', async () => {
      await drain()
      const { projectId } = await seedProject(stores.store)
      // Never initialised here: not counted, nothing to export.
      expect(
        (await claimProjected([sessionOp(projectId, update('d', { init: false }))])).records,
      ).toEqual([])
      expect((await stores.store.outbox.stats()).depth).toBe(0)

      const first = await claimProjected([sessionOp(projectId, update('e'))])
      expect(minutesOf(first)).toMatchObject([counts(1, 0, 0, 0)])
      await stores.store.outbox.release(first)
      // Projected meanwhile, behind the released range: the retry reads the counts as they are now.
      await stores.store.append([
        sessionOp(projectId, update('e', { init: false, status: 'abnormal' })),
      ])
      await projectAll(stores.store)
      const retry = await stores.store.outbox.claim(1, LONG)
      expect(retry.records.map((r) => [r.seq, r.attempts])).toEqual([[first.records[0]!.seq, 1]])
      expect(minutesOf(retry)).toMatchObject([counts(0, 0, 1, 0)])
      expect(BigInt(minutesOf(retry)[0]!.version)).toBeGreaterThan(
        BigInt(minutesOf(first)[0]!.version),
      )
      await stores.store.outbox.complete(retry)
      await drain()
    })
  })
}
