import type { AlertDeliveryStore, IngestStore } from '@tis/ingest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertAlertChannel, insertAlertDelivery } from './alert-fixtures'
import { seedProject } from './store-fixtures'

/** A store with the delivery side of the alerts outbox. */
export type AlertDeliveryTestStore = IngestStore &
  Pick<AlertDeliveryStore, 'claimAlertDeliveries' | 'finishAlertDelivery'>

/** Two stores over one database, and raw SQL on it. */
export interface AlertDeliveryHarness {
  /** On PostgreSQL each has its own connections, so their claims really run at once. */
  readonly first: AlertDeliveryTestStore
  readonly second: AlertDeliveryTestStore
  query<T>(sql: string, params: readonly string[]): Promise<T[]>
  close(): Promise<void>
}

interface StoredDelivery {
  status: string
  attempts: number
  lease_until: Date | null
  last_error: string | null
  response_code: number | null
  delivered_at: Date | null
  next_attempt_at: Date
}

const HOUR = 3_600_000

/**
 * The claim and finish of `AlertDeliveryStore` on one driver: leases, `skip locked` between
 * claimers, attempts counted, due times and final states respected.
 */
export function describeAlertDeliveriesContract(
  name: string,
  factory: () => Promise<AlertDeliveryHarness>,
): void {
  describe(`AlertDeliveryStore contract: ${name}`, () => {
    let h: AlertDeliveryHarness
    beforeAll(async () => {
      h = await factory()
    }, 120_000)
    afterAll(() => h?.close())

    // The tests share one outbox and a claim takes any project's due rows: each test works a
    // week before the one before it, so what earlier tests left pending is never due in it.
    let epoch = Date.UTC(2026, 0, 1)
    const newEpoch = () => {
      epoch -= 7 * 24 * HOUR
      return epoch
    }
    const t = (base: number, seconds: number) => new Date(base + seconds * 1000)

    async function seed(due: Date, count = 1, type: 'webhook' | 'email' = 'webhook') {
      const { projectId } = await seedProject(h.first)
      const channel = await insertAlertChannel(h.query, {
        projectId,
        type,
        ...(type === 'email'
          ? { to: ['a@example.com', 'b@example.com'] }
          : { url: 'https://hooks.example.com/x' }),
      })
      const ids: string[] = []
      for (let i = 0; i < count; i++) {
        ids.push(
          await insertAlertDelivery(h.query, {
            projectId,
            channelId: channel.id,
            channelType: type,
            // Distinct due times: "oldest due first" is checkable.
            nextAttemptAt: new Date(due.getTime() - (count - i) * 1000),
            payload: { issue: { id: 'i', title: 'T' } },
            ruleName: 'r',
          }),
        )
      }
      return { projectId, channel, ids }
    }

    const stored = async (id: string) => {
      const [row] = await h.query<StoredDelivery>(
        `select status, attempts, lease_until, last_error, response_code, delivered_at,
                next_attempt_at from alert_deliveries where id = $1::uuid`,
        [id],
      )
      if (!row) throw new Error(`no delivery ${id}`)
      return row
    }

    it('claims due rows oldest first with the channel and project, leasing them and counting the attempt', async () => {
      const base = newEpoch()
      const { projectId, channel, ids } = await seed(t(base, 0), 3)
      const claimed = await h.first.claimAlertDeliveries(t(base, 0), 2, t(base, 60))
      expect(claimed.map((d) => d.id)).toEqual(ids.slice(0, 2))
      expect(claimed[0]).toMatchObject({
        projectId,
        projectName: 'contract',
        channelId: channel.id,
        channelType: 'webhook',
        url: 'https://hooks.example.com/x',
        to: null,
        secret: channel.secret,
        status: 'pending',
        attempts: 1,
        ruleName: 'r',
        trigger: 'new_issue',
        payload: { issue: { id: 'i', title: 'T' } },
      })
      const row = await stored(ids[0] as string)
      expect(row.lease_until?.getTime()).toBe(t(base, 60).getTime())
      expect(row.attempts).toBe(1)
      expect(
        (await h.first.claimAlertDeliveries(t(base, 0), 10, t(base, 60))).map((d) => d.id),
      ).toEqual([ids[2]])
    })

    it('never gives one row to two concurrent claimers', async () => {
      const base = newEpoch()
      const { ids } = await seed(t(base, 0), 40)
      const stores = [h.first, h.second]
      const rounds = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (stores[i % 2] as AlertDeliveryTestStore).claimAlertDeliveries(
            t(base, 0),
            4,
            t(base, 60),
          ),
        ),
      )
      const rest = await h.second.claimAlertDeliveries(t(base, 0), 100, t(base, 60))
      const all = [...rounds.flat(), ...rest].map((d) => d.id)
      expect(new Set(all).size).toBe(all.length)
      expect([...all].sort()).toEqual([...ids].sort())
      for (const id of ids) expect((await stored(id)).attempts).toBe(1)
    })

    it('claims a row again once its lease expired, counting the attempt', async () => {
      const base = newEpoch()
      const { ids } = await seed(t(base, 0))
      expect(await h.first.claimAlertDeliveries(t(base, 0), 10, t(base, 60))).toHaveLength(1)
      expect(await h.second.claimAlertDeliveries(t(base, 59), 10, t(base, 120))).toEqual([])
      const again = await h.second.claimAlertDeliveries(t(base, 60), 10, t(base, 120))
      expect(again.map((d) => [d.id, d.attempts])).toEqual([[ids[0], 2]])
    })

    it('does not claim a row before it is due', async () => {
      const base = newEpoch()
      const { ids } = await seed(t(base, 11))
      expect(await h.first.claimAlertDeliveries(t(base, 9), 10, t(base, 60))).toEqual([])
      expect(
        (await h.first.claimAlertDeliveries(t(base, 10), 10, t(base, 60))).map((d) => d.id),
      ).toEqual(ids)
    })

    it('records a delivered attempt and never claims the row again', async () => {
      const base = newEpoch()
      const { ids } = await seed(t(base, 0))
      const id = ids[0] as string
      await h.first.claimAlertDeliveries(t(base, 0), 10, t(base, 60))
      await h.first.finishAlertDelivery(id, {
        status: 'delivered',
        at: t(base, 1),
        nextAttemptAt: null,
        responseCode: 204,
        error: null,
      })
      expect(await stored(id)).toMatchObject({
        status: 'delivered',
        attempts: 1,
        lease_until: null,
        response_code: 204,
        last_error: null,
        delivered_at: t(base, 1),
      })
      expect(await h.first.claimAlertDeliveries(t(base, 86_400), 100, t(base, 86_460))).toEqual([])
      // A late attempt of an expired lease cannot move a finished row back.
      await h.second.finishAlertDelivery(id, {
        status: 'pending',
        at: t(base, 2),
        nextAttemptAt: t(base, 30),
        responseCode: null,
        error: 'late',
      })
      expect((await stored(id)).status).toBe('delivered')
    })

    it('records a retry: due again at its next attempt with the error and code kept, lease freed', async () => {
      const base = newEpoch()
      const { ids } = await seed(t(base, 0))
      const id = ids[0] as string
      await h.first.claimAlertDeliveries(t(base, 0), 10, t(base, 60))
      await h.first.finishAlertDelivery(id, {
        status: 'pending',
        at: t(base, 1),
        nextAttemptAt: t(base, 11),
        responseCode: 503,
        error: 'HTTP 503',
      })
      expect(await stored(id)).toMatchObject({
        status: 'pending',
        lease_until: null,
        response_code: 503,
        last_error: 'HTTP 503',
        delivered_at: null,
        next_attempt_at: t(base, 11),
      })
      expect(await h.first.claimAlertDeliveries(t(base, 10), 10, t(base, 60))).toEqual([])
      const again = await h.second.claimAlertDeliveries(t(base, 11), 10, t(base, 60))
      expect(again.map((d) => [d.id, d.attempts, d.lastError])).toEqual([[id, 2, 'HTTP 503']])
      await h.second.finishAlertDelivery(id, {
        status: 'failed',
        at: t(base, 12),
        nextAttemptAt: null,
        responseCode: null,
        error: 'gave up',
      })
      expect(await stored(id)).toMatchObject({ status: 'failed', last_error: 'gave up' })
      expect(await h.first.claimAlertDeliveries(t(base, 86_400), 100, t(base, 86_460))).toEqual([])
    })

    it("claims an email channel's recipients, and nulls once the channel is deleted", async () => {
      const base = newEpoch()
      const email = await seed(t(base, 0), 1, 'email')
      const [claimed] = await h.first.claimAlertDeliveries(t(base, 0), 10, t(base, 60))
      expect(claimed).toMatchObject({
        to: ['a@example.com', 'b@example.com'],
        url: null,
        secret: null,
      })

      const base2 = newEpoch()
      const hook = await seed(t(base2, 0))
      await h.query('delete from alert_channels where id = $1::uuid', [hook.channel.id])
      const [orphan] = await h.first.claimAlertDeliveries(t(base2, 0), 10, t(base2, 60))
      expect(orphan).toMatchObject({
        id: hook.ids[0],
        channelId: null,
        channelName: 'a channel',
        url: null,
        to: null,
        secret: null,
      })
      expect(email.ids).toHaveLength(1)
    })
  })
}
