// Fault: the server is SIGKILLed while its alert deliveries are in flight (the receiver has the
// requests and never answers them). Restarted on the same PostgreSQL, the server sends every one
// again once the killed process's lease expires, with the same X-Tis-Delivery id, and the delivery
// log shows every one delivered: nothing is lost.
import { type AlertReceiver, startAlertReceiver } from '@tis/test-utils/alert-receiver'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import type { ServerProcess } from '@tis/test-utils/server'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  alertingProject,
  alertsDatabase,
  LEASE_SECONDS,
  receivedIds,
  sendErrors,
  settledDeliveryLog,
  startAlertsServer,
  waitUntil,
} from './alerts-support'

const ISSUES = 5

describeWithTestDatabase('fault: SIGKILL of the server mid-delivery', (baseUrl) => {
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

  it('sends every notification again after a restart, same delivery ids, all delivered', {
    timeout: 120_000,
  }, async () => {
    const first = await startAlertsServer(db.env, db.dir)
    servers.push(first.server)
    const { projectId, key } = await alertingProject(first.url, receiver)
    receiver.answer(...Array.from({ length: ISSUES }, () => 'hang' as const))
    await sendErrors(
      first.url,
      key,
      Array.from({ length: ISSUES }, (_, i) => `killed-${i}`),
    )
    // Every delivery is claimed and its request is at the receiver, unanswered (within the
    // 10 s send timeout: none has been recorded as failed).
    await waitUntil(() => receiver.requests.length >= ISSUES, 15_000, 'the first requests')
    const before = receivedIds(receiver)
    const firstSeen = Date.now()
    expect(new Set(before).size, 'one request per notification').toBe(ISSUES)
    first.server.kill('SIGKILL')
    expect(await first.server.exited).toBe('SIGKILL')

    const second = await startAlertsServer(db.env, db.dir)
    servers.push(second.server)
    await waitUntil(
      () => receiver.requests.length >= 2 * ISSUES,
      LEASE_SECONDS * 1_000 + 30_000,
      'the deliveries after the restart',
    )
    const after = receivedIds(receiver).slice(ISSUES)
    expect(after.sort(), 'the same delivery ids, each sent again').toEqual([...before].sort())
    // Sent again only after the killed process's lease ran out.
    expect(Date.now() - firstSeen).toBeGreaterThanOrEqual((LEASE_SECONDS - 1) * 1_000)
    for (const r of receiver.requests) {
      expect(JSON.parse(r.body.toString()).id).toBe(r.headers['x-tis-delivery'])
    }

    const log = await settledDeliveryLog(second.url, projectId)
    expect(log.map((d) => d.id).sort()).toEqual([...before].sort())
    expect(log.map((d) => [d.status, d.attempts, d.response_code])).toEqual(
      Array.from({ length: ISSUES }, () => ['delivered', 2, 200]),
    )
    expect(second.server.output.stderr, 'the restarted server wrote to stderr').toBe('')
  })
})
