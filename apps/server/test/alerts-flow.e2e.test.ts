import { randomUUID } from 'node:crypto'
import { type AlertReceiver, startAlertReceiver } from '@tis/test-utils/alert-receiver'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import {
  ADMIN_TOKEN,
  createClient,
  freshIp,
  type Harness,
  startPgliteHarness,
  startPostgresHarness,
} from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ENV = {
  SERVICE_ALERTS_ALLOW_PRIVATE_TARGETS: 'true',
  SERVICE_ALERTS_WORKER: 'true',
  SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '1000000',
}
const EVENTS = 2_000
const BATCH = 100

/**
 * An event storm of one new issue (issue 21): 2,000 events of one fingerprint, sent in batches
 * of 100, four at a time, through the ingest API. Exactly one `new_issue` webhook reaches the
 * receiver, and the delivery log holds exactly one delivery.
 */
function describeStorm(harness: () => Harness) {
  let receiver: AlertReceiver
  beforeAll(async () => {
    receiver = await startAlertReceiver()
  })
  afterAll(() => receiver?.close())

  it('2,000 events of one new issue send one new_issue webhook', { timeout: 90_000 }, async () => {
    const c = createClient(harness().url)
    const { projectId, key } = await c.projectWithKey()
    const base = `/api/v1/projects/${projectId}`
    const channel = await c.api('POST', `${base}/alert_channels`, {
      token: ADMIN_TOKEN,
      json: { name: 'receiver', type: 'webhook', url: receiver.url },
    })
    expect(channel.status, channel.text).toBe(201)
    const channelId = channel.body.alert_channel.id as string
    const rule = { name: 'new issues', trigger: 'new_issue', channel_ids: [channelId] }
    expect(
      (await c.api('POST', `${base}/alert_rules`, { token: ADMIN_TOKEN, json: rule })).status,
    ).toBe(201)

    const post = async () => {
      const lines = Array.from({ length: BATCH }, () =>
        JSON.stringify({
          event: {
            event_type: 'error',
            message: 'storm',
            fingerprint: 'storm',
            event_id: randomUUID(),
          },
        }),
      )
      const res = await fetch(`${harness().url}/api/v1/ingest_events/batch`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/x-ndjson',
          'X-Forwarded-For': freshIp(),
        },
        body: `${lines.join('\n')}\n`,
      })
      const body = (await res.json()) as { accepted: number }
      expect(res.status).toBe(202)
      return body.accepted
    }
    let accepted = 0
    for (let sent = 0; sent < EVENTS; sent += 4 * BATCH) {
      const counts = await Promise.all([post(), post(), post(), post()])
      accepted += counts.reduce((a, b) => a + b, 0)
    }
    expect(accepted).toBe(EVENTS)
    // Projected (the query waits for it): one issue counting every event.
    const issues = await harness().query<{ count: number }>(
      'select count::int as count from issues where project_id = $1',
      [projectId],
    )
    expect(issues).toEqual([{ count: EVENTS }])
    const until = Date.now() + 15_000
    while (receiver.requests.length === 0 && Date.now() < until) await sleep(100)
    // Three more rounds of the worker: a second webhook would show now.
    await sleep(3_000)
    expect(receiver.requests.map((r) => r.headers['x-tis-event'])).toEqual(['new_issue'])
    const log = await c.api('GET', `${base}/alert_deliveries`, { token: ADMIN_TOKEN })
    expect(log.body.alert_deliveries).toMatchObject([
      {
        trigger: 'new_issue',
        status: 'delivered',
        id: receiver.requests[0]!.headers['x-tis-delivery'],
      },
    ])
  })
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('alerts flow on PGlite', () => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPgliteHarness(ENV)
  })
  afterAll(() => harness?.close())
  describeStorm(() => harness)
})

describeWithTestDatabase('alerts flow on PostgreSQL', (url) => {
  let harness: Harness
  beforeAll(async () => {
    harness = await startPostgresHarness(url, ENV)
  })
  afterAll(() => harness?.close())
  describeStorm(() => harness)
})
