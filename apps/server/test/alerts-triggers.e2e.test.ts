// Alerts end to end through one real server (PGlite, the worker on its default pacing): rules
// and a webhook channel made over HTTP, telemetry sent over HTTP, and what a real receiver on a
// local port gets — signed, once per cause. The server's clock is the harness's (real time plus
// what a test advances), so a missed deadline passes without waiting for it.

import {
  type AlertReceiver,
  loadDocumentedVerifier,
  startAlertReceiver,
} from '@tis/test-utils/alert-receiver'
import {
  ADMIN_TOKEN,
  ALERTS_TEST_ENV,
  createClient,
  type Harness,
  startPgliteHarness,
} from '@tis/test-utils/server'
import { afterAll, beforeAll, expect, it } from 'vitest'

let harness: Harness
let receiver: AlertReceiver
let verify: Awaited<ReturnType<typeof loadDocumentedVerifier>>

beforeAll(async () => {
  receiver = await startAlertReceiver()
  verify = await loadDocumentedVerifier()
  // The receiver listens on loopback: a private target, allowed for this server only.
  harness = await startPgliteHarness(ALERTS_TEST_ENV)
}, 60_000)
afterAll(async () => {
  await harness?.close()
  await receiver?.close()
})

interface Body {
  id: string
  type: string
  text: string
  rule: { name: string } | null
  issue?: { title: string; regression_count: number }
  monitor?: { slug: string; state: string; missed_after?: string }
}

async function setup(triggers: readonly string[]) {
  const c = createClient(harness.url)
  const { projectId, key } = await c.projectWithKey()
  const base = `/api/v1/projects/${projectId}`
  const channel = await c.api('POST', `${base}/alert_channels`, {
    token: ADMIN_TOKEN,
    json: { name: 'hook', type: 'webhook', url: receiver.url },
  })
  expect(channel.status, channel.text).toBe(201)
  for (const trigger of triggers) {
    const rule = await c.api('POST', `${base}/alert_rules`, {
      token: ADMIN_TOKEN,
      json: { name: `on ${trigger}`, trigger, channel_ids: [channel.body.alert_channel.id] },
    })
    expect(rule.status, rule.text).toBe(201)
  }
  const secret = channel.body.secret as string
  return { c, key, base, secret }
}

/** The bodies the receiver got for this project's rules, after checking each signature. */
function received(secret: string): Body[] {
  return receiver.requests
    .filter((r) => verify(r.body, r.headers['x-tis-signature'], secret))
    .map((r) => {
      const body = JSON.parse(r.body.toString('utf8')) as Body
      expect(r.headers['x-tis-delivery']).toBe(body.id)
      expect(r.headers['x-tis-event']).toBe(body.type)
      return body
    })
}

async function until(what: string, done: () => boolean, ms = 15_000) {
  const deadline = Date.now() + ms
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

it('a new issue and its regression each reach the webhook once, signed', async () => {
  const { c, key, base, secret } = await setup(['new_issue', 'regression'])
  const message = `TypeError: checkout ${Date.now()}`
  const send = async () => {
    const r = await c.ingest('/api/v1/ingest_events', key, {
      event: { event_type: 'error', message, level: 'error', environment: 'production' },
    })
    expect(r.status, r.text).toBe(201)
  }
  for (let i = 0; i < 5; i++) await send()
  await until('the new issue', () => received(secret).length >= 1)
  const [opened] = received(secret)
  expect(opened).toMatchObject({ type: 'new_issue', rule: { name: 'on new_issue' } })
  expect(opened?.issue?.title).toContain('checkout')

  const issues = await c.api('GET', `${base}/issues`, { token: ADMIN_TOKEN })
  const issueId = issues.body.issues[0].id as string
  const resolved = await c.api('PATCH', `${base}/issues/${issueId}`, {
    token: ADMIN_TOKEN,
    json: { issue: { status: 'resolved' } },
  })
  expect(resolved.status, resolved.text).toBe(200)
  await send()
  await until('the regression', () => received(secret).length >= 2)
  // Two worker rounds more: nothing else arrives (five events opened one issue).
  await new Promise((r) => setTimeout(r, 2_500))
  expect(received(secret).map((b) => [b.type, b.issue?.regression_count])).toEqual([
    ['new_issue', 0],
    ['regression', 1],
  ])
}, 60_000)

it('a monitor that fails, recovers, then stops reporting is notified at each change', async () => {
  const { c, key, secret } = await setup(['monitor_failed', 'monitor_recovered', 'monitor_missed'])
  const slug = `nightly-${Date.now()}`
  let last = harness.now()
  const checkIn = async (status: string) => {
    last = harness.now()
    const r = await c.ingest('/api/v1/check_ins', key, {
      check_in: {
        slug,
        status,
        environment: 'production',
        expected_interval_seconds: 60,
        occurred_at: last.toISOString(),
      },
    })
    expect(r.status, r.text).toBe(201)
  }
  await checkIn('ok')
  await checkIn('error')
  await checkIn('error')
  await until('the failure', () => received(secret).length >= 1)
  await checkIn('ok')
  await until('the recovery', () => received(secret).length >= 2)
  // Interval 60 s, grace max(30 s, 30 s): missed 90 s after the last check-in, noticed by the
  // worker's next round (every second) — within the grace plus 5 s the issue asks for. The
  // clock also runs in real time: 85 s after the check-in, then 2 s of rounds, is before it.
  harness.advance(85 - (harness.now().getTime() - last.getTime()) / 1000)
  await new Promise((r) => setTimeout(r, 2_000))
  expect(received(secret).map((b) => b.type)).toEqual(['monitor_failed', 'monitor_recovered'])
  harness.advance(5)
  const started = Date.now()
  await until('the missed deadline', () => received(secret).length >= 3, 5_000)
  expect(Date.now() - started).toBeLessThan(5_000)
  const missed = received(secret)[2]
  expect(missed).toMatchObject({ type: 'monitor_missed', monitor: { slug, state: 'missed' } })
  expect(missed?.monitor?.missed_after).toEqual(expect.any(String))
}, 60_000)

it('refuses at send time a channel that points inside the network without the setting', async () => {
  // A channel row made before its URL became private (or by hand): the API would refuse it now,
  // and so does the worker, at every attempt, without sending.
  const guarded = await startPgliteHarness({ SERVICE_ALERTS_WORKER: 'true' })
  try {
    const c = createClient(guarded.url)
    const project = await c.createProject()
    const [row] = await guarded.query<{ id: string }>(
      `insert into alert_channels (id, project_id, name, type, url, created_at)
       values (gen_random_uuid(), $1::uuid, 'inside', 'webhook', $2, now()) returning id::text`,
      [project.id, receiver.url],
    )
    const base = `/api/v1/projects/${project.id}`
    const queued = await c.api('POST', `${base}/alert_channels/${row?.id}/test`, {
      token: ADMIN_TOKEN,
    })
    expect(queued.status, queued.text).toBe(202)
    let log: { status: string; attempts: number; last_error: string | null } | undefined
    for (let i = 0; i < 200 && !(log && log.attempts >= 1); i++) {
      const r = await c.api('GET', `${base}/alert_deliveries`, { token: ADMIN_TOKEN })
      log = r.body.alert_deliveries[0]
      if (!(log && log.attempts >= 1)) await new Promise((r) => setTimeout(r, 50))
    }
    expect(log).toMatchObject({ status: 'pending', attempts: 1 })
    expect(log?.last_error).toMatch(/private or local address \(127\.0\.0\.1\)/)
    const id = queued.body.alert_delivery.id as string
    expect(receiver.requests.filter((r) => r.headers['x-tis-delivery'] === id)).toEqual([])
  } finally {
    await guarded.close()
  }
}, 60_000)

it('runs no alerts worker where SERVICE_ALERTS_WORKER=false', async () => {
  const quiet = await startPgliteHarness({ SERVICE_ALERTS_WORKER: 'false' })
  try {
    expect(quiet.server.engine.workers.alerts).toBe(false)
    expect(harness.server.engine.workers.alerts).toBe(true)
  } finally {
    await quiet.close()
  }
})

it("a release whose crash-free sessions fall below the rule's threshold is notified once", async () => {
  const { c, key, base, secret } = await setup([])
  const channels = await c.api('GET', `${base}/alert_channels`, { token: ADMIN_TOKEN })
  const rule = await c.api('POST', `${base}/alert_rules`, {
    token: ADMIN_TOKEN,
    json: {
      name: 'crash-free',
      trigger: 'release_crash_free_below',
      threshold: 0.9,
      window_seconds: 3_600,
      environment: 'production',
      channel_ids: [channels.body.alert_channels[0].id],
    },
  })
  expect(rule.status, rule.text).toBe(201)
  expect(rule.body.alert_rule).toMatchObject({ threshold: 0.9, window_seconds: 3_600 })
  const session = async (sid: string, status: string) => {
    const r = await c.ingest('/api/v1/sessions', key, {
      session: {
        sid,
        init: true,
        status,
        started: harness.now().toISOString(),
        attrs: { release: 'shop@7.0.0', environment: 'production' },
      },
    })
    expect(r.status, r.text).toBe(201)
  }
  // 9 of 10 crash-free: at the threshold, not below it.
  for (let i = 0; i < 9; i++) await session(`ok-${i}`, 'exited')
  await session('crash-1', 'crashed')
  await harness.query('select 1')
  harness.advance(20)
  await new Promise((r) => setTimeout(r, 2_500))
  expect(received(secret)).toEqual([])
  // 9 of 11: below 90%.
  await session('crash-2', 'crashed')
  // Once projected, each advance of the clock lets the worker's next round check again.
  await harness.query('select 1')
  let advanced = 0
  await until('the fall below', () => {
    if (Date.now() - advanced > 1_000) {
      harness.advance(20)
      advanced = Date.now()
    }
    return received(secret).length >= 1
  })
  harness.advance(20)
  await new Promise((r) => setTimeout(r, 2_500))
  const bodies = received(secret) as (Body & { release?: Record<string, unknown> })[]
  expect(bodies).toHaveLength(1)
  expect(bodies[0]).toMatchObject({
    type: 'release_crash_free_below',
    text: expect.stringMatching(
      /^Release shop@7\.0\.0 \(production\) is 81\.81% crash-free, below 90\.00%, in project-/,
    ),
    release: {
      version: 'shop@7.0.0',
      environment: 'production',
      sessions: 11,
      crashed: 2,
      threshold: 0.9,
      window_seconds: 3_600,
    },
  })
}, 60_000)
