// A storm of new issues through the whole chain on PGlite: the rounds record a rule's first ten
// notifications of the minute, the scheduler's summary of the rest once the minute is over, and
// the dispatcher posts them all to a real HTTP receiver, each body as the OpenAPI document's
// AlertWebhookBody describes it and signed. The clock is the test's (moved to the real minute
// the rounds ran in, which the database's now() decides).

import { randomUUID } from 'node:crypto'
import { alertWebhookBodySchema } from '@tis/schema'
import { insertAlertChannel } from '@tis/test-utils/alert-fixtures'
import { acceptAndProject, eventOp, seedProject, uniqueHash } from '@tis/test-utils/store-fixtures'
import { expect, it } from 'vitest'
import {
  advance,
  clock,
  dispatcher,
  receiver,
  sql,
  store,
  useDispatchHarness,
  verify,
} from './alert-dispatch-harness'

useDispatchHarness()

it('sends a rule ten messages a minute one by one, then one summary of the rest', async () => {
  const { projectId } = await seedProject(store)
  const query = (text: string, params: readonly string[]) => sql.query(text, params)
  const channel = await insertAlertChannel(query, { projectId, type: 'webhook', url: receiver.url })
  const ruleId = randomUUID()
  await query(
    `insert into alert_rules (id, project_id, name, trigger, quiet_seconds, created_at)
     values ($1::uuid, $2::uuid, 'new errors', 'new_issue', 0, now())`,
    [ruleId, projectId],
  )
  await query('insert into alert_rule_channels (rule_id, channel_id) values ($1::uuid, $2::uuid)', [
    ruleId,
    channel.id,
  ])
  const titles = Array.from({ length: 13 }, (_, i) => `TypeError ${i}`)
  await acceptAndProject(
    store,
    titles.map((title) => eventOp(projectId, { issue: { hash: uniqueHash(), title } })),
  )
  const [burst] = await sql.query<{ minute: Date }>(
    'select minute from alert_rule_bursts where rule_id = $1::uuid',
    [ruleId],
  )
  const minute = new Date(burst!.minute)
  // The clock one minute after the rounds' minute began: that minute is over.
  advance((minute.getTime() + 60_000 - clock.getTime()) / 1000)
  expect(await store.summarizeAlertBursts(clock, 100)).toBe(1)
  while ((await dispatcher().runOnce()).claimed > 0) {}

  expect(receiver.requests).toHaveLength(11)
  const bodies = receiver.requests.map((request) => {
    expect(verify(request.body, request.headers['x-tis-signature'], channel.secret!)).toBe(true)
    return alertWebhookBodySchema.parse(JSON.parse(request.body.toString('utf8')))
  })
  const [summaries, single] = [bodies.filter((b) => b.summary), bodies.filter((b) => !b.summary)]
  expect(single).toHaveLength(10)
  expect(summaries).toHaveLength(1)
  const [summary] = summaries
  const hhmm = (d: Date) => d.toISOString().slice(11, 16)
  expect(summary).toMatchObject({
    type: 'new_issue',
    text: `3 more new issues in contract (${hhmm(minute)}–${hhmm(new Date(minute.getTime() + 60_000))} UTC)`,
    rule: { id: ruleId, name: 'new errors' },
    summary: {
      count: 3,
      since: minute.toISOString(),
      until: new Date(minute.getTime() + 60_000).toISOString(),
    },
  })
  expect(summary).not.toHaveProperty('issue')
  // Every issue is named once: ten messages, and the summary's list.
  const named = [
    ...single.map((b) => b.issue?.title),
    ...(summary?.summary?.issues ?? []).map((i) => i.title),
  ]
  expect(named.sort()).toEqual([...titles].sort())
  // Nothing more is summarized or sent later.
  advance(120)
  expect(await store.summarizeAlertBursts(clock, 100)).toBe(0)
  expect(await dispatcher().runOnce()).toMatchObject({ claimed: 0 })
})
