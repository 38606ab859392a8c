// The alert dispatcher (@tis/ingest) over this adapter on PGlite, sending webhooks to a real
// HTTP receiver on a local port: signature (checked with the snippet docs/alerts.md shows),
// body, headers, retries, backoff, leases, and the failure cases. The clock is the test's. The
// sender is the bare one of @tis/test-utils; the server's own is tested in
// apps/server/src/alerts-webhook.test.ts.

import { describe, expect, it } from 'vitest'
import {
  advance,
  clock,
  dispatcher,
  PAYLOAD,
  receiver,
  row,
  seed,
  sql,
  store,
  useDispatchHarness,
  verify,
  warnings,
} from './alert-dispatch-harness'

useDispatchHarness()

describe('webhook delivery', () => {
  it('posts the documented body once serialised, signed so the documented snippet verifies it', async () => {
    const { projectId, channel, id } = await seed()
    expect(await dispatcher().runOnce()).toEqual({
      claimed: 1,
      delivered: 1,
      retried: 0,
      failed: 0,
    })
    expect(receiver.requests).toHaveLength(1)
    const [request] = receiver.requests
    if (!request) throw new Error('nothing received')
    const secret = channel.secret as string
    expect(verify(request.body, request.headers['x-tis-signature'], secret)).toBe(true)
    expect(verify(request.body, request.headers['x-tis-signature'], `${secret}x`)).toBe(false)
    expect(
      verify(
        Buffer.concat([request.body, Buffer.from(' ')]),
        request.headers['x-tis-signature'],
        secret,
      ),
    ).toBe(false)
    expect(request.method).toBe('POST')
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'tis-alerts/9.9.9',
      'x-tis-delivery': id,
      'x-tis-event': 'new_issue',
    })
    expect(JSON.parse(request.body.toString('utf8'))).toEqual({
      id,
      type: 'new_issue',
      created_at: clock.toISOString(),
      text: 'New issue in contract: TypeError: x is undefined',
      project: { id: projectId, name: 'contract' },
      rule: { id: null, name: 'new errors' },
      ...PAYLOAD,
    })
    expect(await row(id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      response_code: 200,
      lease_until: null,
      last_error: null,
      delivered_at: clock,
    })
    expect(await dispatcher().runOnce()).toMatchObject({ claimed: 0 })
  })

  it('retries a 500 after 10 s and delivers the same message with the same delivery id', async () => {
    const { id } = await seed()
    receiver.answer(500)
    const d = dispatcher()
    expect(await d.runOnce()).toMatchObject({ claimed: 1, retried: 1 })
    const first = clock
    expect(await row(id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      response_code: 500,
      last_error: 'HTTP 500',
      lease_until: null,
      next_attempt_at: new Date(first.getTime() + 10_000),
    })
    advance(9)
    expect(await d.runOnce()).toMatchObject({ claimed: 0 })
    advance(1)
    expect(await d.runOnce()).toMatchObject({ claimed: 1, delivered: 1 })
    expect(await row(id)).toMatchObject({
      status: 'delivered',
      attempts: 2,
      response_code: 200,
      last_error: null,
    })
    const [a, b] = receiver.requests
    expect(receiver.requests).toHaveLength(2)
    expect(a?.headers['x-tis-delivery']).toBe(id)
    expect(b?.headers['x-tis-delivery']).toBe(id)
    expect(b?.body.equals(a?.body ?? Buffer.alloc(0))).toBe(true)
    expect(b?.headers['x-tis-signature']).toBe(a?.headers['x-tis-signature'])
  })

  it('keeps retrying while the receiver is down and delivers once it is back', async () => {
    const { id } = await seed()
    await receiver.stop()
    const d = dispatcher()
    expect(await d.runOnce()).toMatchObject({ retried: 1 })
    for (const wait of [10, 30, 60]) {
      advance(wait)
      expect(await d.runOnce()).toMatchObject({ claimed: 1, retried: 1 })
    }
    expect((await row(id)).last_error).toBe(
      `fetch failed: connect ECONNREFUSED ${new URL(receiver.url).host}`,
    )
    await receiver.start()
    advance(119)
    expect(await d.runOnce()).toMatchObject({ claimed: 0 })
    advance(1)
    expect(await d.runOnce()).toMatchObject({ delivered: 1 })
    expect(receiver.requests).toHaveLength(1)
    expect(await row(id)).toMatchObject({ status: 'delivered', attempts: 5 })
  })

  it('times out a receiver that never answers, frees the lease and retries', async () => {
    const { id } = await seed()
    receiver.answer('hang')
    const d = dispatcher({ timeoutMs: 300 })
    expect(await d.runOnce()).toMatchObject({ retried: 1 })
    expect(await row(id)).toMatchObject({
      status: 'pending',
      lease_until: null,
      // The test sender's abort (the server's sender words it "no answer within 300 ms").
      last_error: 'The operation was aborted due to timeout',
      response_code: null,
    })
    advance(10)
    expect(await d.runOnce()).toMatchObject({ delivered: 1 })
    expect(receiver.requests).toHaveLength(2)
  })

  it('honours Retry-After when longer than the backoff, up to 15 minutes', async () => {
    const { id } = await seed()
    receiver.answer({ status: 429, headers: { 'Retry-After': '120' } })
    const d = dispatcher()
    await d.runOnce()
    expect((await row(id)).next_attempt_at).toEqual(new Date(clock.getTime() + 120_000))
    advance(120)
    receiver.answer({ status: 503, headers: { 'Retry-After': '86400' } })
    await d.runOnce()
    expect((await row(id)).next_attempt_at).toEqual(new Date(clock.getTime() + 900_000))
    receiver.answer({ status: 503, headers: { 'Retry-After': '1' } })
    advance(900)
    await d.runOnce()
    // Shorter than the third step (1 min): the backoff wins.
    expect((await row(id)).next_attempt_at).toEqual(new Date(clock.getTime() + 60_000))
  })

  it('does not follow a redirect: the attempt fails and is retried', async () => {
    const { id } = await seed()
    receiver.answer({ status: 302, headers: { Location: `${receiver.url}/elsewhere` } })
    expect(await dispatcher().runOnce()).toMatchObject({ retried: 1 })
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hook'])
    expect(await row(id)).toMatchObject({
      status: 'pending',
      response_code: 302,
      last_error: 'HTTP 302: redirects are not followed',
    })
  })

  it('retries a 4xx but fails a 410 Gone at once', async () => {
    const retried = await seed()
    receiver.answer(404)
    await dispatcher().runOnce()
    expect(await row(retried.id)).toMatchObject({ status: 'pending', response_code: 404 })
    // The retried row is due in 10 s: the next one is claimed alone.
    const gone = await seed()
    receiver.answer(410)
    await dispatcher().runOnce()
    expect(await row(gone.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      response_code: 410,
      last_error: 'HTTP 410 Gone: the receiver is gone',
    })
    expect(warnings.join('\n')).toContain(gone.id)
  })

  it('fails a delivery whose channel was deleted without sending anything', async () => {
    const { channel, id } = await seed()
    await sql.query('delete from alert_channels where id = $1::uuid', [channel.id])
    expect(await dispatcher().runOnce()).toMatchObject({ claimed: 1, failed: 1 })
    expect(receiver.requests).toHaveLength(0)
    expect(await row(id)).toMatchObject({ status: 'failed', last_error: 'channel deleted' })
  })

  it('sends nothing to a target the send-time check refuses, and records why', async () => {
    const { id } = await seed()
    const checked: string[] = []
    const d = dispatcher({
      allowTarget: async (url) => {
        checked.push(url)
        return 'private address 127.0.0.1 refused'
      },
    })
    expect(await d.runOnce()).toMatchObject({ retried: 1 })
    expect(checked).toEqual([receiver.url])
    expect(receiver.requests).toHaveLength(0)
    expect(await row(id)).toMatchObject({
      status: 'pending',
      last_error: 'private address 127.0.0.1 refused',
    })
  })

  it('gives up once the next attempt would be more than 24 hours after the notification', async () => {
    const { id } = await seed('webhook', PAYLOAD, new Date(clock.getTime() - 24 * 3600_000 + 5_000))
    receiver.answer(500)
    expect(await dispatcher().runOnce()).toMatchObject({ failed: 1 })
    expect(await row(id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: 'HTTP 500 (gave up after 1 attempts)',
    })
  })

  it('never logs the channel secret', async () => {
    const { channel } = await seed()
    receiver.answer(410)
    await dispatcher().runOnce()
    expect(warnings).toHaveLength(1)
    expect(warnings.join('\n')).not.toContain(channel.secret as string)
    expect(warnings.join('\n')).not.toContain(receiver.url)
  })

  it('delivers, with the same id, what a process that died mid-delivery had claimed, once its lease ran out', async () => {
    const { id } = await seed()
    // The dead process: it claimed (lease 60 s) and never recorded anything.
    await store.claimAlertDeliveries(clock, 10, new Date(clock.getTime() + 60_000))
    const d = dispatcher({ leaseMs: 60_000 })
    advance(59)
    expect(await d.runOnce()).toMatchObject({ claimed: 0 })
    advance(1)
    expect(await d.runOnce()).toMatchObject({ claimed: 1, delivered: 1 })
    expect(receiver.requests.map((r) => r.headers['x-tis-delivery'])).toEqual([id])
    expect(await row(id)).toMatchObject({ status: 'delivered', attempts: 2 })
  })
})
