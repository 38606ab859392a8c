// Faults of the receiver, through a real server process on PostgreSQL with the product's retry
// schedule (10 s, then 30 s, ±20 %): a receiver that answers 500 once, and a receiver whose port
// refuses connections for 20 s while issues are opened.
import {
  type AlertReceiver,
  loadDocumentedVerifier,
  startAlertReceiver,
} from '@tis/test-utils/alert-receiver'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import type { ServerProcess } from '@tis/test-utils/server'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  alertingProject,
  alertsDatabase,
  deliveryLog,
  receivedIds,
  sendErrors,
  settledDeliveryLog,
  sleep,
  startAlertsServer,
  waitUntil,
} from './alerts-support'

const OUTAGE_MS = 20_000

describeWithTestDatabase('fault: the alert receiver fails', (baseUrl) => {
  let db: Awaited<ReturnType<typeof alertsDatabase>>
  let server: ServerProcess
  let url: string
  const receivers: AlertReceiver[] = []

  beforeAll(async () => {
    db = await alertsDatabase(baseUrl)
    ;({ server, url } = await startAlertsServer(db.env, db.dir))
  }, 60_000)

  afterAll(async () => {
    server?.kill('SIGKILL')
    await server?.exited
    await Promise.all(receivers.map((r) => r.close()))
    await db?.drop()
  }, 60_000)

  it('answering 500 then 200: one retry after the first backoff, same id, 2 attempts', {
    timeout: 60_000,
  }, async () => {
    const receiver = await startAlertReceiver()
    receivers.push(receiver)
    const { projectId, key } = await alertingProject(url, receiver)
    receiver.answer(500)
    await sendErrors(url, key, ['flaky'])
    await waitUntil(() => receiver.requests.length >= 1, 15_000, 'the first attempt')
    const failedAt = Date.now()
    await waitUntil(() => receiver.requests.length >= 2, 20_000, 'the retry')
    const retriedAt = Date.now()
    // Two more rounds of the worker: a third request would show now.
    await sleep(2_000)
    const ids = receivedIds(receiver)
    expect(ids).toHaveLength(2)
    expect(ids[1], 'the retry carries the same delivery id').toBe(ids[0])
    // The first step of the schedule: 10 s × [0.8, 1.2], give or take a 1 s round.
    expect(retriedAt - failedAt).toBeGreaterThanOrEqual(7_000)
    expect(receiver.requests[1]!.body.equals(receiver.requests[0]!.body), 'same body').toBe(true)
    const log = await settledDeliveryLog(url, projectId)
    expect(log).toMatchObject([
      { id: ids[0], trigger: 'new_issue', status: 'delivered', attempts: 2, response_code: 200 },
    ])
  })

  it('receiver down for 20 s: every notification arrives after it is back, each once, signed', {
    timeout: 120_000,
  }, async () => {
    const verify = await loadDocumentedVerifier()
    const receiver = await startAlertReceiver()
    receivers.push(receiver)
    const { projectId, key, secret } = await alertingProject(url, receiver)
    await receiver.stop()
    const downAt = Date.now()
    await sendErrors(url, key, ['down-0', 'down-1', 'down-2', 'down-3', 'down-4'])
    await sleep(5_000)
    await sendErrors(url, key, ['down-5', 'down-6', 'down-7', 'down-8', 'down-9'])
    await sleep(10_000)
    // During the outage: every notification has failed attempts recorded, none delivered.
    const during = await deliveryLog(url, projectId)
    expect(during).toHaveLength(10)
    expect(
      during.filter((d) => d.status !== 'pending' || d.attempts < 1 || d.last_error === null),
    ).toEqual([])
    expect(
      during.some((d) => d.attempts >= 2),
      'the first ones were retried during it',
    ).toBe(true)
    await sleep(Math.max(0, downAt + OUTAGE_MS - Date.now()))
    expect(receiver.requests, 'nothing got through the closed port').toEqual([])
    await receiver.start()
    const upAt = Date.now()

    // Each is delivered at its next attempt: at most one step of the schedule (30 s × 1.2).
    await waitUntil(() => receiver.requests.length >= 10, 45_000, 'every notification')
    const lastAt = Date.now()
    await sleep(2_000)
    const ids = receivedIds(receiver)
    expect(ids).toHaveLength(10)
    expect(new Set(ids).size, 'a delivery id arrived twice').toBe(10)
    for (const r of receiver.requests) {
      expect(verify(r.body, r.headers['x-tis-signature'], secret), 'signature').toBe(true)
    }
    const after = await settledDeliveryLog(url, projectId)
    expect(after.map((d) => d.id).sort()).toEqual([...ids].sort())
    expect(after.filter((d) => d.status !== 'delivered' || d.attempts < 2)).toEqual([])
    console.info(
      `receiver down ${OUTAGE_MS} ms; all 10 delivered ${lastAt - upAt} ms after it was back`,
    )
    expect(server.output.stderr, 'the server wrote to stderr').toBe('')
  })
})
