// Fault: two server processes on one PostgreSQL, both running the alerts worker (claims with
// FOR UPDATE SKIP LOCKED). Issues opened through both: the receiver gets every notification, and
// each delivery id exactly once, also with a receiver slow enough that requests are in flight
// across the other process's rounds.
import { type AlertReceiver, startAlertReceiver } from '@tis/test-utils/alert-receiver'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import type { ServerProcess } from '@tis/test-utils/server'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  alertingProject,
  alertsDatabase,
  receivedIds,
  sendErrors,
  settledDeliveryLog,
  sleep,
  startAlertsServer,
  waitUntil,
} from './alerts-support'

// Ten issues (a rule's messages of a minute) on four rules: 40 notifications.
const ISSUES = 10
const RULES = 4
const NOTIFICATIONS = ISSUES * RULES

describeWithTestDatabase('fault: two server processes on one PostgreSQL', (baseUrl) => {
  let db: Awaited<ReturnType<typeof alertsDatabase>>
  let receiver: AlertReceiver
  const servers: ServerProcess[] = []

  beforeAll(async () => {
    db = await alertsDatabase(baseUrl)
    receiver = await startAlertReceiver()
  })

  afterAll(async () => {
    for (const s of servers) s.kill('SIGKILL')
    await Promise.all(servers.map((s) => s.exited))
    await receiver?.close()
    await db?.drop()
  }, 60_000)

  it('delivers each notification exactly once', { timeout: 120_000 }, async () => {
    // One after the other: the first one migrates the schema.
    const a = await startAlertsServer(db.env, db.dir)
    servers.push(a.server)
    const b = await startAlertsServer(db.env, db.dir)
    servers.push(b.server)
    const { projectId, key } = await alertingProject(a.url, receiver, RULES)
    // A slow receiver: every round spans the other process's rounds, rows stay claimed (pending,
    // leased) while their requests are in flight, and both processes have work to claim.
    receiver.answer(
      ...Array.from({ length: NOTIFICATIONS }, () => ({ status: 200, delayMs: 1_500 })),
    )
    const fingerprints = Array.from({ length: ISSUES }, (_, i) => `pair-${i}`)
    await Promise.all([
      sendErrors(
        a.url,
        key,
        fingerprints.filter((_, i) => i % 2 === 0),
      ),
      sendErrors(
        b.url,
        key,
        fingerprints.filter((_, i) => i % 2 === 1),
      ),
    ])
    await waitUntil(() => receiver.requests.length >= NOTIFICATIONS, 30_000, 'every notification')
    // A few more rounds of both workers: a duplicate would show now.
    await sleep(3_000)
    const ids = receivedIds(receiver)
    expect(new Set(ids).size, 'every notification arrived').toBe(NOTIFICATIONS)
    expect(ids.length, 'a delivery id arrived twice').toBe(NOTIFICATIONS)
    const messages = receiver.requests.map((r) => JSON.parse(r.body.toString()).event.message)
    expect(messages.sort()).toEqual(
      fingerprints.flatMap((f) => Array.from({ length: RULES }, () => `boom ${f}`)).sort(),
    )

    const log = await settledDeliveryLog(b.url, projectId)
    expect(log.map((d) => d.id).sort()).toEqual([...ids].sort())
    expect(log.filter((d) => d.status !== 'delivered' || d.attempts !== 1)).toEqual([])
    expect(a.server.output.stderr + b.server.output.stderr, 'a server wrote to stderr').toBe('')
  })
})
