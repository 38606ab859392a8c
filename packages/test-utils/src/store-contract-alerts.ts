import { randomUUID } from 'node:crypto'
import type { AlertRuleRecord, IngestStore, NewAlertChannel } from '@tis/ingest'
import { describe, expect, it } from 'vitest'
import { at, seedProject } from './store-fixtures'
import type { StoreHarness } from './store-probe'

/** A webhook channel of `projectId` created at `seconds`. */
function webhook(projectId: string, seconds: number, name = 'hook'): NewAlertChannel {
  return {
    id: randomUUID(),
    projectId,
    name,
    type: 'webhook',
    url: 'https://hooks.example.com/tis',
    to: null,
    secret: 'a'.repeat(64),
    createdAt: at(seconds),
  }
}

/** A `new_issue` rule of `projectId` notifying `channelIds`. */
function rule(projectId: string, channelIds: string[], seconds = 1): AlertRuleRecord {
  return {
    id: randomUUID(),
    projectId,
    name: 'new errors',
    trigger: 'new_issue',
    channelIds,
    environment: 'production',
    level: null,
    threshold: null,
    windowSeconds: null,
    quietSeconds: 0,
    createdAt: at(seconds),
  }
}

/** Queues a test delivery of `channelId` at `seconds`. */
const testDelivery = (store: IngestStore, projectId: string, channelId: string, seconds: number) =>
  store.createTestAlertDelivery({
    id: randomUUID(),
    projectId,
    channelId,
    payload: {},
    createdAt: at(seconds),
  })

/** Alert channels, rules and the delivery log. */
export function describeAlertsContract(h: () => StoreHarness) {
  describe('alert configuration', () => {
    it('stores channels of each type, oldest first, never answering the secret', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const hook = webhook(projectId, 2)
      const email: NewAlertChannel = {
        ...webhook(projectId, 1, 'mail'),
        type: 'email',
        url: null,
        to: ['a@example.com', 'b@example.com'],
        secret: null,
      }
      const { secret: _s, ...hookRecord } = hook
      expect(await store.createAlertChannel(hook)).toEqual(hookRecord)
      await store.createAlertChannel(email)
      const listed = await store.listAlertChannels(projectId)
      expect(listed.map((c) => c.name)).toEqual(['mail', 'hook'])
      expect(listed[0]?.to).toEqual(['a@example.com', 'b@example.com'])
      expect(listed[1]).not.toHaveProperty('secret')
    })

    it('keeps a rule’s channels in the order given, and only the project’s own', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const other = await seedProject(store)
      const [a, b, c] = [webhook(projectId, 1), webhook(projectId, 2), webhook(projectId, 3)]
      const foreign = webhook(other.projectId, 1)
      for (const ch of [a, b, c, foreign]) await store.createAlertChannel(ch)
      const input = rule(projectId, [c.id, foreign.id, a.id, b.id])
      const created = await store.createAlertRule(input)
      expect(created).toEqual({ ...input, channelIds: [c.id, a.id, b.id] })
      expect(await store.listAlertRules(projectId)).toEqual([created])
    })

    it('removes a deleted channel from its rules; 404 (false) for another project’s', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const other = await seedProject(store)
      const [a, b] = [webhook(projectId, 1), webhook(projectId, 2)]
      for (const ch of [a, b]) await store.createAlertChannel(ch)
      const r = await store.createAlertRule(rule(projectId, [a.id, b.id]))
      expect(await store.deleteAlertChannel(other.projectId, a.id)).toBe(false)
      expect(await store.deleteAlertChannel(projectId, a.id)).toBe(true)
      expect(await store.deleteAlertChannel(projectId, a.id)).toBe(false)
      expect((await store.listAlertRules(projectId))[0]).toEqual({ ...r, channelIds: [b.id] })
      expect((await store.listAlertChannels(projectId)).map((c) => c.id)).toEqual([b.id])
    })

    it('keeps a deleted rule’s deliveries, with its name and without its id', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const ch = webhook(projectId, 1)
      await store.createAlertChannel(ch)
      const r = await store.createAlertRule(rule(projectId, [ch.id]))
      const id = randomUUID()
      // A rule's delivery is recorded by evaluation (another port); written here as it would be.
      await probe.exec(
        `insert into alert_deliveries (id, project_id, rule_id, rule_name, channel_id, channel_name,
           channel_type, trigger, payload, status, next_attempt_at, created_at)
         values ('${id}', '${projectId}', '${r.id}', 'new errors', '${ch.id}', 'hook', 'webhook',
           'new_issue', '{}', 'pending', now(), now())`,
      )
      expect(await store.deleteAlertRule(projectId, r.id)).toBe(true)
      expect(await store.deleteAlertRule(projectId, r.id)).toBe(false)
      expect(await store.listAlertRules(projectId)).toEqual([])
      const [delivery] = await store.listAlertDeliveries({ projectId, limit: 10 })
      expect(delivery).toMatchObject({ id, ruleId: null, ruleName: 'new errors', channelId: ch.id })
    })

    it('queues a pending test delivery with the channel copied; null for another project', async () => {
      const { store } = h()
      const { projectId } = await seedProject(store)
      const other = await seedProject(store)
      const ch = webhook(projectId, 1, 'ops hook')
      await store.createAlertChannel(ch)
      const id = randomUUID()
      const created = await store.createTestAlertDelivery({
        id,
        projectId,
        channelId: ch.id,
        payload: {},
        createdAt: at(5),
      })
      expect(created).toEqual({
        id,
        projectId,
        ruleId: null,
        ruleName: null,
        channelId: ch.id,
        channelName: 'ops hook',
        channelType: 'webhook',
        trigger: 'test',
        subjectId: null,
        payload: {},
        status: 'pending',
        attempts: 0,
        nextAttemptAt: at(5),
        lastError: null,
        responseCode: null,
        createdAt: at(5),
        deliveredAt: null,
      })
      expect(await testDelivery(store, other.projectId, ch.id, 6)).toBeNull()
      expect(await store.listAlertDeliveries({ projectId: other.projectId, limit: 10 })).toEqual([])
      expect(await store.listAlertChannels(other.projectId)).toEqual([])
    })

    it('pages deliveries newest first by (created_at, id), filtered by status', async () => {
      const { store, probe } = h()
      const { projectId } = await seedProject(store)
      const ch = webhook(projectId, 1)
      await store.createAlertChannel(ch)
      const made = []
      // Two at the same instant: the id breaks the tie.
      for (const s of [10, 20, 20, 30, 40])
        made.push(await testDelivery(store, projectId, ch.id, s))
      const ids = made.map((d) => d!.id)
      await probe.exec(`update alert_deliveries set status = 'delivered' where id = '${ids[3]}'`)
      const expected = [...made]
        .sort((x, y) => +y!.createdAt - +x!.createdAt || (x!.id < y!.id ? 1 : -1))
        .map((d) => d!.id)
      const first = await store.listAlertDeliveries({ projectId, limit: 2 })
      expect(first.map((d) => d.id)).toEqual(expected.slice(0, 2))
      const last = first[1]!
      const rest = await store.listAlertDeliveries({
        projectId,
        limit: 10,
        before: { createdAt: last.createdAt, id: last.id },
      })
      expect(rest.map((d) => d.id)).toEqual(expected.slice(2))
      const delivered = await store.listAlertDeliveries({
        projectId,
        limit: 10,
        status: 'delivered',
      })
      expect(delivered.map((d) => d.id)).toEqual([ids[3]])
      expect(delivered[0]?.status).toBe('delivered')
    })
  })
}
