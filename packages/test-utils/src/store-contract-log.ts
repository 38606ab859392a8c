import { randomUUID } from 'node:crypto'
import type { WriteOp } from '@tis/ingest'
import { describe, expect, it } from 'vitest'
import {
  acceptAndProject,
  at,
  checkInOp,
  eventOp,
  monitorUpdate,
  projectAll,
  seedProject,
  spanOp,
  uniqueHash,
} from './store-fixtures'
import type { StoreHarness } from './store-probe'

/** The ingest log: acceptance, exactly-once projection, the read barrier, partitions. */
export function describeLogContract(h: () => StoreHarness) {
  describe('the ingest log', () => {
    const logged = () => h().store

    it('acknowledges on the log: nothing is in the read model before the projection', async () => {
      const { probe } = h()
      const store = logged()
      const { projectId } = await seedProject(store)
      const hash = uniqueHash()
      const [result] = await store.append([eventOp(projectId, { issue: { hash } })])
      expect(result).toEqual({ id: expect.any(String), legacyId: expect.any(Number) })
      expect(await probe.count('events', projectId)).toBe(0)
      expect(await store.pendingTarget()).not.toBeNull()
      await projectAll(store)
      expect(await probe.count('events', projectId)).toBe(1)
      expect((await probe.issue(projectId, hash))?.count).toBe(1)
    })

    it('acknowledges nothing of a batch naming a project that does not exist', async () => {
      const store = logged()
      const { projectId } = await seedProject(store)
      await projectAll(store)
      const batch = [eventOp(projectId), checkInOp(randomUUID(), monitorUpdate('m', 'ok', at(1)))]
      await expect(store.append(batch)).rejects.toThrow(/project that does not exist/)
      expect(await store.pendingTarget()).toBeNull()
    })

    it('projects each entry once, however many projectors run at the same time', async () => {
      const { probe } = h()
      const store = logged()
      const { projectId } = await seedProject(store)
      const hash = uniqueHash()
      const ops = Array.from({ length: 60 }, (_, i) =>
        eventOp(projectId, { issue: { hash }, occurredAt: at(i) }),
      )
      for (let i = 0; i < ops.length; i += 20) await store.append(ops.slice(i, i + 20))
      await Promise.all([projectAll(store, 7), projectAll(store, 11), projectAll(store, 13)])
      expect(await probe.count('events', projectId)).toBe(60)
      expect((await probe.issue(projectId, hash))?.count).toBe(60)
    })

    it('keeps the log seq as the legacy id of the projected event and span', async () => {
      const store = logged()
      const { projectId } = await seedProject(store)
      const event = eventOp(projectId)
      const span = spanOp(projectId, randomUUID())
      const [e, s] = await store.append([event, span])
      expect(s!.legacyId).toBeGreaterThan(e!.legacyId!)
      await projectAll(store)
      const again = await store.append([
        { ...event, dedupe: true },
        { ...span, dedupe: true },
      ])
      // Idempotency keys are only kept for ops that asked for them: the first append had none.
      expect(again.map((r) => r.existing)).toEqual([undefined, undefined])
    })

    it('keeps idempotency keys per kind: an event, a span and a check-in may share an event_id', async () => {
      const store = logged()
      const { projectId } = await seedProject(store)
      const id = randomUUID()
      const ops: WriteOp[] = [
        { ...eventOp(projectId), id, dedupe: true },
        { ...spanOp(projectId, randomUUID(), { span_id: undefined }), id, dedupe: true },
        { ...checkInOp(projectId, monitorUpdate('nightly', 'ok', at(0))), id, dedupe: true },
      ]
      const first = await store.append(ops)
      expect(first.map((r) => [r.id, r.existing])).toEqual([
        [id, undefined],
        [id, undefined],
        [id, undefined],
      ])
      const again = await store.append(ops)
      expect(again.map((r) => r.existing?.id)).toEqual([id, id, id])
    })

    it('tells a read when the projection has passed what was acknowledged before it', async () => {
      const store = logged()
      const { projectId } = await seedProject(store)
      await projectAll(store)
      expect(await store.pendingTarget()).toBeNull()
      await store.append([eventOp(projectId), eventOp(projectId)])
      const target = await store.pendingTarget()
      expect(target).not.toBeNull()
      expect(await store.hasProjected(target!)).toBe(false)
      const lag = await store.projectionLag()
      expect(lag.records).toBeGreaterThanOrEqual(2)
      expect(lag.oldestReceivedAt).toBeInstanceOf(Date)
      await projectAll(store)
      expect(await store.hasProjected(target!)).toBe(true)
      expect(await store.pendingTarget()).toBeNull()
      expect((await store.projectionLag()).records).toBe(0)
    })

    it('counts the lag up to 10,000 records and dates it by the oldest (docs/write-path.md)', async () => {
      const store = logged()
      const { projectId } = await seedProject(store)
      await projectAll(store)
      const ops = Array.from({ length: 10_001 }, (_, i) =>
        eventOp(projectId, { occurredAt: at(i) }),
      )
      await store.append(ops)
      const lag = await store.projectionLag()
      expect(lag.records).toBe(10_000)
      expect(lag.oldestReceivedAt).toEqual(at(0))
      await projectAll(store)
      expect(await store.projectionLag()).toEqual({ records: 0, oldestReceivedAt: null })
    })

    it('projects nothing of a round that fails transiently, and all of it on the next round', async () => {
      const { probe } = h()
      const store = logged()
      const { projectId } = await seedProject(store)
      await projectAll(store)
      const hash = uniqueHash()
      const good = eventOp(projectId, { issue: { hash } })
      const poison = eventOp(projectId, { event: { message: `poison-${projectId}` } })
      await store.append([good, poison])
      // A trigger fails the round's insert of the second event with a serialization failure, as
      // a transient fault mid-round would.
      await probe.exec(`create function tis_contract_poison() returns trigger language plpgsql as
        $$ begin if new.message = 'poison-${projectId}' then
          raise exception 'poisoned' using errcode = '40001'; end if;
        return new; end $$`)
      await probe.exec(`create trigger tis_contract_poison before insert on events
        for each row execute function tis_contract_poison()`)
      try {
        await expect(store.project(100)).rejects.toThrow(/poisoned/)
        expect(await probe.count('events', projectId)).toBe(0)
        expect(await probe.issue(projectId, hash)).toBeNull()
      } finally {
        await probe.exec('drop trigger tis_contract_poison on events')
        await probe.exec('drop function tis_contract_poison()')
      }
      await projectAll(store)
      expect(await probe.count('events', projectId)).toBe(2)
      expect((await probe.issue(projectId, hash))?.count).toBe(1)
    })

    it('sets aside an entry that fails on its own every time, and projects the rest', async () => {
      const { probe } = h()
      const store = logged()
      const { projectId } = await seedProject(store)
      await projectAll(store)
      const hash = uniqueHash()
      const ops = [
        eventOp(projectId, { issue: { hash } }),
        eventOp(projectId, { event: { message: `bad-${projectId}` } }),
        eventOp(projectId, { issue: { hash } }),
      ]
      await store.append(ops)
      await probe.exec(`create function tis_contract_bad() returns trigger language plpgsql as
        $$ begin if new.message = 'bad-${projectId}' then raise exception 'always bad'; end if;
        return new; end $$`)
      await probe.exec(`create trigger tis_contract_bad before insert on events
        for each row execute function tis_contract_bad()`)
      try {
        await projectAll(store)
      } finally {
        await probe.exec('drop trigger tis_contract_bad on events')
        await probe.exec('drop function tis_contract_bad()')
      }
      expect(await probe.count('events', projectId)).toBe(2)
      expect((await probe.issue(projectId, hash))?.count).toBe(2)
      const failures = await probe.query<{ id: string; error: string }>(
        `select id::text as id, error from ingest_log_failures where project_id = $1`,
        [projectId],
      )
      expect(failures).toEqual([{ id: ops[1]!.id, error: expect.stringContaining('always bad') }])
      expect(await store.pendingTarget()).toBeNull()
    })

    it('projects an entry whose id is already in the read model once, and the rest of its round', async () => {
      const { probe } = h()
      const store = logged()
      const { projectId } = await seedProject(store)
      const hash = uniqueHash()
      const stored = eventOp(projectId, { issue: { hash } })
      await acceptAndProject(store, [stored])
      // Without `dedupe` acceptance keeps no key, so the same id is logged again (as a row an
      // old version wrote outside the log would be): the round meets it, and goes on without it.
      const fresh = eventOp(projectId, { issue: { hash } })
      await acceptAndProject(store, [{ ...stored }, fresh])
      expect(await probe.count('events', projectId)).toBe(2)
      expect(await probe.eventIssueId(fresh.id)).toEqual(expect.any(String))
      expect((await probe.issue(projectId, hash))?.count).toBe(2)
      const failures = await probe.query<{ n: number }>(
        'select count(*)::int as n from ingest_log_failures where project_id = $1',
        [projectId],
      )
      expect(failures).toEqual([{ n: 0 }])
      expect(await store.pendingTarget()).toBeNull()
    })

    it('prepares daily partitions ahead and drops a past day every consumer has read', async () => {
      const store = logged()
      const { projectId } = await seedProject(store)
      const yesterday = new Date(Date.now() - 86_400_000)
      const name = (d: Date) => `ingest_log_${d.toISOString().slice(0, 10).replaceAll('-', '')}`
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000)
      const first = await store.maintainLog(yesterday)
      expect(first.created).toEqual([name(day(-1)), name(day(0)), name(day(1))])
      await store.append([{ ...eventOp(projectId), receivedAt: yesterday }])
      // Yesterday's partition holds an entry the projection has not read: it stays.
      const before = await store.maintainLog(new Date())
      expect(before).toEqual({ created: [name(day(2))], dropped: [] })
      await projectAll(store)
      const after = await store.maintainLog(new Date())
      expect(after.dropped).toEqual([name(yesterday)])
    })

    it('keeps a record of a few kB inline and uncompressed in every partition (migration 20)', async () => {
      const { probe } = h()
      const store = logged()
      const { projectId } = await seedProject(store)
      await store.maintainLog(new Date())
      // Every partition, the migrated default one and those maintenance created, is set so.
      const settings = await probe.query<{ name: string; options: string[] | null }>(
        `select c.relname as name, c.reloptions as options
           from pg_inherits i join pg_class c on c.oid = i.inhrelid
          where i.inhparent = 'ingest_log'::regclass`,
      )
      expect(settings.length).toBeGreaterThan(1)
      for (const partition of settings) {
        expect(partition.options, partition.name).toContain('toast_tuple_target=8160')
      }
      // A 5 kB context: PostgreSQL's default would have compressed it (tuples over ~2 kB).
      const text = Array.from({ length: 100 }, (_, i) => `frame ${i} of a long stack trace`).join(
        '\n',
      )
      const op = eventOp(projectId, { event: { context: { text } } })
      const [result] = await store.append([op])
      const [row] = await probe.query<{ compression: string | null; bytes: number }>(
        `select pg_column_compression(record) as compression, pg_column_size(record) as bytes
           from ingest_log where seq = $1::bigint`,
        [String(result?.legacyId)],
      )
      expect(row).toEqual({ compression: null, bytes: expect.any(Number) })
      expect(row!.bytes).toBeGreaterThan(text.length)
    })
  })
}
