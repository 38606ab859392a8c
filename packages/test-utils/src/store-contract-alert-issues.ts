import type { AlertDeliveryStore, WriteOp } from '@tis/ingest'
import { expect, it } from 'vitest'
import { addChannel, addRule, deliveries, triggerCounts } from './store-alert-fixtures'
import { acceptAndProject, at, eventOp, seedProject, uniqueHash } from './store-fixtures'
import type { StoreHarness } from './store-probe'

const iso = (d: Date) => d.toISOString()

/** An error event of issue `hash` with an environment and a level. */
const errorOp = (projectId: string, hash: string, s: number, fields: Record<string, string> = {}) =>
  eventOp(projectId, {
    issue: { hash, title: `TypeError ${hash.slice(0, 8)}` },
    occurredAt: at(s),
    event: { environment: 'production', level: 'error', ...fields },
  })

/** Issue triggers: new_issue, regression, spike, filters, projects kept apart. */
export function describeAlertIssueContract(h: () => StoreHarness) {
  it('records one pending delivery per channel of a rule for a new issue, with its snapshot', async () => {
    const { store, probe } = h()
    const { projectId } = await seedProject(store)
    const hooks = await addChannel(probe, projectId, 'a hooks', 'webhook')
    const slack = await addChannel(probe, projectId, 'b slack', 'slack')
    const ruleId = await addRule(probe, projectId, {
      trigger: 'new_issue',
      name: 'new errors',
      channelIds: [hooks, slack],
    })
    const hash = uniqueHash()
    const first = errorOp(projectId, hash, 1, {
      release: '1.2.0',
      message: 'x is undefined',
      user_id: 'a',
    })
    const second = errorOp(projectId, hash, 2, { environment: 'staging', user_id: 'b' })
    // The payload is the issue after the round: both events, both of their users.
    await acceptAndProject(store, [first, second])
    const issue = (await probe.issue(projectId, hash))!
    const recorded = await deliveries(probe, projectId)
    const common = {
      trigger: 'new_issue',
      ruleId,
      ruleName: 'new errors',
      subjectId: issue.id,
      status: 'pending',
      attempts: 0,
      due: true,
      payload: {
        issue: {
          id: issue.id,
          title: issue.title,
          level: 'error',
          status: 'unresolved',
          count: 2,
          users: 2,
          first_seen_at: iso(at(1)),
          last_seen_at: iso(at(2)),
          last_release: '1.2.0',
          regression_count: 0,
        },
        event: {
          id: first.id,
          environment: 'production',
          level: 'error',
          release: '1.2.0',
          message: 'x is undefined',
        },
      },
    }
    expect(recorded).toEqual([
      { ...common, channelId: hooks, channelName: 'a hooks', channelType: 'webhook' },
      { ...common, channelId: slack, channelName: 'b slack', channelType: 'slack' },
    ])
    await acceptAndProject(store, [errorOp(projectId, hash, 3)])
    expect(await deliveries(probe, projectId)).toHaveLength(2)
  })

  it('storm: 10,000 events of one new issue → one new_issue, one spike per quiet period', async () => {
    const { store, probe } = h()
    const { projectId } = await seedProject(store)
    const channelIds = [await addChannel(probe, projectId, 'hooks')]
    await addRule(probe, projectId, { trigger: 'new_issue', channelIds })
    await addRule(probe, projectId, {
      trigger: 'spike',
      channelIds,
      threshold: 100,
      windowSeconds: 600,
      quietSeconds: 3600,
    })
    const hash = uniqueHash()
    const now = Date.now()
    for (let round = 0; round < 5; round++) {
      const ops = Array.from({ length: 2000 }, (_, i) =>
        eventOp(projectId, {
          issue: { hash },
          occurredAt: new Date(now + round * 2000 + i),
        }),
      )
      await acceptAndProject(store, ops)
    }
    expect((await probe.issue(projectId, hash))?.count).toBe(10_000)
    expect(await triggerCounts(probe, projectId)).toEqual({ new_issue: 1, spike: 1 })
    const spike = (await deliveries(probe, projectId)).find((d) => d.trigger === 'spike')
    // The first round fired it (the batch, or up to 1,000 log entries): its payload counts the
    // events of the window then, not just threshold + 1.
    expect(spike?.payload.spike).toEqual({
      count: expect.any(Number),
      threshold: 100,
      window_seconds: 600,
    })
    expect([1000, 2000]).toContain(spike?.payload.spike?.count)
  }, 120_000)

  it('fires a spike only past the threshold of events arrived in the window', async () => {
    const { store, probe } = h()
    const { projectId } = await seedProject(store)
    const channelIds = [await addChannel(probe, projectId, 'hooks')]
    await addRule(probe, projectId, {
      trigger: 'spike',
      channelIds,
      threshold: 3,
      windowSeconds: 60,
    })
    const hash = uniqueHash()
    const recent = (ms: number) =>
      eventOp(projectId, { issue: { hash }, occurredAt: new Date(Date.now() - ms) })
    // Old arrivals (received long ago) do not count, however many.
    const old = Array.from({ length: 5 }, (_, i) => errorOp(projectId, hash, i))
    await acceptAndProject(store, old)
    await acceptAndProject(store, [recent(1000), recent(500), recent(0)])
    expect(await triggerCounts(probe, projectId)).toEqual({})
    await acceptAndProject(store, [recent(0)])
    expect(await triggerCounts(probe, projectId)).toEqual({ spike: 1 })
    // No quiet period: every round over the threshold fires again.
    await acceptAndProject(store, [recent(0)])
    expect(await triggerCounts(probe, projectId)).toEqual({ spike: 2 })
  })

  it('counts arrivals only past the lowest spike threshold, then from the stored events', async () => {
    const { store, probe } = h()
    const { projectId } = await seedProject(store)
    const channelIds = [await addChannel(probe, projectId, 'hooks')]
    const rule = { trigger: 'spike', channelIds, windowSeconds: 60, quietSeconds: 3600 }
    await addRule(probe, projectId, { ...rule, threshold: 4 })
    await addRule(probe, projectId, { ...rule, threshold: 6, environment: 'staging' })
    const hash = uniqueHash()
    const recent = (environment = 'production') =>
      eventOp(projectId, { issue: { hash }, occurredAt: new Date(), event: { environment } })
    const stored = async () => {
      const [row] = await probe.query<{ n: number; tracked: boolean }>(
        `select coalesce(sum(b.count), 0)::int as n, bool_or(i.spike_tracked) as tracked
           from issues i left join alert_spike_counts b on b.issue_id = i.id
          where i.project_id = $1::uuid and i.hash = $2`,
        [projectId, hash],
      )
      return row
    }
    // Four events, one per round: no window can hold more than the lowest threshold yet.
    for (let i = 0; i < 4; i++) await acceptAndProject(store, [recent()])
    expect(await stored()).toEqual({ n: 0, tracked: false })
    expect(await triggerCounts(probe, projectId)).toEqual({})
    // The fifth passes it: the round counts the four before it from the events, and fires.
    await acceptAndProject(store, [recent()])
    expect(await stored()).toEqual({ n: 5, tracked: true })
    expect(await triggerCounts(probe, projectId)).toEqual({ spike: 1 })
    const [fired] = await deliveries(probe, projectId)
    expect(fired?.payload.spike).toEqual({ count: 5, threshold: 4, window_seconds: 60 })
    // Tracked: each round adds its own; the staging rule counts only staging arrivals.
    await acceptAndProject(store, [recent('staging'), recent('staging')])
    expect(await stored()).toEqual({ n: 7, tracked: true })
    expect(await triggerCounts(probe, projectId)).toEqual({ spike: 1 })
  })

  it('sends ten messages a rule a minute one by one and summarizes the rest once the minute is over', async () => {
    const { store, probe } = h()
    const scan = store as unknown as Pick<AlertDeliveryStore, 'summarizeAlertBursts'>
    const { projectId } = await seedProject(store)
    const channelIds = [
      await addChannel(probe, projectId, 'a hooks'),
      await addChannel(probe, projectId, 'b slack', 'slack'),
    ]
    await addRule(probe, projectId, { trigger: 'new_issue', channelIds })
    // 25 issues opened in one round (one minute).
    await acceptAndProject(
      store,
      Array.from({ length: 25 }, (_, i) => errorOp(projectId, uniqueHash(), i)),
    )
    expect(await triggerCounts(probe, projectId)).toEqual({ new_issue: 20 })
    const [burst] = await probe.query<{ minute: Date; sent: number; folded: string }>(
      `select b.minute, b.sent, b.folded::text as folded from alert_rule_bursts b
         join alert_rules r on r.id = b.rule_id where r.project_id = $1::uuid`,
      [projectId],
    )
    expect(burst).toMatchObject({ sent: 10, folded: '15' })
    const minute = new Date(burst!.minute)
    const summaries = async () =>
      (await deliveries(probe, projectId)).filter((d) => d.payload.summary)
    // The minute is not over: nothing summarized yet.
    await scan.summarizeAlertBursts(new Date(minute.getTime() + 59_000), 1000)
    expect(await summaries()).toEqual([])
    await scan.summarizeAlertBursts(new Date(minute.getTime() + 60_000), 1000)
    const recorded = await summaries()
    expect(recorded.map((d) => d.channelName)).toEqual(['a hooks', 'b slack'])
    const summary = recorded[0]?.payload.summary
    expect(summary).toMatchObject({
      count: 15,
      since: minute.toISOString(),
      until: new Date(minute.getTime() + 60_000).toISOString(),
    })
    expect(summary?.issues).toHaveLength(10)
    expect(recorded[0]).toMatchObject({ trigger: 'new_issue', subjectId: null, status: 'pending' })
    // The sent and summarized issues are the 25, each once.
    const sent = (await deliveries(probe, projectId))
      .filter((d) => d.channelName === 'a hooks' && !d.payload.summary)
      .map((d) => d.payload.issue?.id)
    expect(new Set([...sent, ...(summary?.issues ?? []).map((i) => i.id)]).size).toBe(20)
    // Summarized once, whatever runs again.
    await scan.summarizeAlertBursts(new Date(minute.getTime() + 120_000), 1000)
    expect(await summaries()).toHaveLength(2)
  })

  it('records one regression per reopening of a resolved issue', async () => {
    const { store, probe } = h()
    const { projectId } = await seedProject(store)
    const channelIds = [await addChannel(probe, projectId, 'hooks')]
    await addRule(probe, projectId, { trigger: 'regression', channelIds })
    const hash = uniqueHash()
    await acceptAndProject(store, [errorOp(projectId, hash, 1)])
    const { id } = (await probe.issue(projectId, hash))!
    await store.setIssueStatus(projectId, id, 'resolved')
    const reopening = errorOp(projectId, hash, 2, { release: '2.0.0' })
    await acceptAndProject(store, [reopening, errorOp(projectId, hash, 3)])
    await acceptAndProject(store, [errorOp(projectId, hash, 4)])
    let recorded = await deliveries(probe, projectId)
    expect(recorded.map((d) => d.trigger)).toEqual(['regression'])
    expect(recorded[0]?.payload).toMatchObject({
      issue: { id, status: 'unresolved', regression_count: 1, count: 3 },
      event: { id: reopening.id, release: '2.0.0' },
    })
    await store.setIssueStatus(projectId, id, 'resolved')
    await acceptAndProject(store, [errorOp(projectId, hash, 5)])
    recorded = await deliveries(probe, projectId)
    expect(recorded.map((d) => d.payload.issue?.regression_count)).toEqual([1, 2])
  })

  it('checks environment and level against the first event of the round that passes them', async () => {
    const { store, probe } = h()
    const { projectId } = await seedProject(store)
    const channelIds = [await addChannel(probe, projectId, 'hooks')]
    const fatalProd = await addRule(probe, projectId, {
      trigger: 'new_issue',
      channelIds,
      environment: 'production',
      level: 'fatal',
    })
    const staging = await addRule(probe, projectId, {
      trigger: 'new_issue',
      channelIds,
      environment: 'staging',
    })
    await addRule(probe, projectId, { trigger: 'new_issue', channelIds, environment: 'qa' })
    const hash = uniqueHash()
    const ops: WriteOp[] = [
      errorOp(projectId, hash, 1, { environment: 'staging' }),
      errorOp(projectId, hash, 2, { environment: 'production', level: 'error' }),
      errorOp(projectId, hash, 3, { environment: 'production', level: 'fatal' }),
      errorOp(projectId, hash, 4, { environment: 'staging' }),
    ]
    await acceptAndProject(store, ops)
    const fired = new Map((await deliveries(probe, projectId)).map((d) => [d.ruleId, d]))
    expect(fired.size).toBe(2)
    expect(fired.get(fatalProd)?.payload.event?.id).toBe(ops[2]!.id)
    expect(fired.get(staging)?.payload.event?.id).toBe(ops[0]!.id)
    // The issue is no longer new: a later qa event does not fire the qa rule.
    await acceptAndProject(store, [errorOp(projectId, hash, 5, { environment: 'qa' })])
    expect(await deliveries(probe, projectId)).toHaveLength(2)
  })

  it("never fires another project's rules", async () => {
    const { store, probe } = h()
    const mine = await seedProject(store)
    const other = await seedProject(store)
    const channelIds = [await addChannel(probe, other.projectId, 'hooks')]
    for (const trigger of ['new_issue', 'regression', 'spike']) {
      await addRule(probe, other.projectId, {
        trigger,
        channelIds,
        threshold: 0,
        windowSeconds: 600,
      })
    }
    const hash = uniqueHash()
    await acceptAndProject(store, [
      eventOp(mine.projectId, { issue: { hash }, occurredAt: new Date() }),
    ])
    expect(await deliveries(probe, other.projectId)).toEqual([])
    expect(await deliveries(probe, mine.projectId)).toEqual([])
  })
}
