// The alert dispatcher (@tis/ingest) over this adapter on PGlite, sending to a real HTTP
// receiver on a local port: signature (checked with the snippet docs/alerts.md shows), body,
// headers, retries, backoff, leases, and the failure cases. The clock is the test's.

import { PGlite } from '@electric-sql/pglite'
import {
  type AlertDispatcherOptions,
  createAlertDispatcher,
  createFetchWebhookSend,
  type EngineLogger,
} from '@tis/ingest'
import { insertAlertChannel, insertAlertDelivery } from '@tis/test-utils/alert-fixtures'
import {
  type AlertReceiver,
  loadDocumentedVerifier,
  startAlertReceiver,
  type VerifyTisSignature,
} from '@tis/test-utils/alert-receiver'
import { seedProject } from '@tis/test-utils/store-fixtures'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { SqlExecutor } from '../src/executor'
import { createPgliteStore, type PostgresIngestStore } from '../src/index'
import { createPgliteExecutor } from '../src/pglite-executor'

const PAYLOAD = {
  issue: {
    id: '0190a0a0-0000-7000-8000-000000000001',
    title: 'TypeError: x is undefined',
    level: 'error',
    status: 'unresolved',
    count: 1,
    first_seen_at: '2026-11-26T14:00:00.000Z',
    last_seen_at: '2026-11-26T14:00:00.000Z',
    last_release: '1.2.0',
    regression_count: 0,
  },
  event: {
    id: '0190a0a0-0000-7000-8000-000000000002',
    environment: 'production',
    level: 'error',
    release: '1.2.0',
    message: 'x is undefined',
  },
}

interface Row {
  status: string
  attempts: number
  lease_until: Date | null
  last_error: string | null
  response_code: number | null
  next_attempt_at: Date
  delivered_at: Date | null
}

let db: PGlite
let sql: SqlExecutor
let store: PostgresIngestStore
let receiver: AlertReceiver
let verify: VerifyTisSignature
const warnings: string[] = []
const logger: EngineLogger = {
  warn: (m, f) => warnings.push(`${m} ${JSON.stringify(f)}`),
  error: (m, f) => warnings.push(`${m} ${JSON.stringify(f)}`),
}

beforeAll(async () => {
  db = await PGlite.create()
  store = createPgliteStore(db)
  await store.migrate()
  sql = createPgliteExecutor(db)
  ;[receiver, verify] = await Promise.all([startAlertReceiver(), loadDocumentedVerifier()])
}, 60_000)
afterAll(async () => {
  await receiver?.close()
  await db?.close()
})

// The outbox is shared and a claim takes every due row: each test starts a week before the one
// before it, so nothing an earlier test left is due in it.
let epoch = Date.UTC(2026, 10, 1)
let clock: Date
beforeEach(async () => {
  epoch -= 7 * 24 * 3600_000
  clock = new Date(epoch)
  warnings.length = 0
  await receiver.reset()
})
const advance = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000)
}

function dispatcher(options: Partial<AlertDispatcherOptions> = {}) {
  return createAlertDispatcher({
    store,
    send: { webhook: createFetchWebhookSend() },
    logger,
    now: () => clock,
    random: () => 0.5, // no jitter: waits are the schedule's steps exactly
    userAgent: 'tis-alerts/9.9.9',
    ...options,
  })
}

async function seed(
  type: 'webhook' | 'slack' = 'webhook',
  payload: object = PAYLOAD,
  createdAt: Date = clock,
) {
  const { projectId } = await seedProject(store)
  const query = (text: string, params: readonly string[]) => sql.query(text, params)
  const channel = await insertAlertChannel(query, { projectId, type, url: receiver.url })
  const id = await insertAlertDelivery(query, {
    projectId,
    channelId: channel.id,
    channelType: type,
    nextAttemptAt: clock,
    createdAt,
    payload,
    ruleName: 'new errors',
  })
  return { projectId, channel, id }
}

async function row(id: string): Promise<Row> {
  const [r] = await sql.query<Row>(
    `select status, attempts, lease_until, last_error, response_code, next_attempt_at,
            delivered_at from alert_deliveries where id = $1::uuid`,
    [id],
  )
  if (!r) throw new Error(`no delivery ${id}`)
  return r
}

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
      last_error: 'no answer within 300 ms',
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
})

/**
 * Slack's incoming-webhook shape as its docs describe it: `text` (notification and fallback)
 * and `blocks`; a `header` block takes a `plain_text` object of at most 150 characters, a
 * `section` block a `mrkdwn` text object of at most 3,000; `&`, `<` and `>` in text are
 * escaped as `&amp;`, `&lt;` and `&gt;`. Returns the problems found.
 */
function slackShapeProblems(body: unknown): string[] {
  const problems: string[] = []
  const b = body as { text?: unknown; blocks?: unknown }
  if (typeof b.text !== 'string' || b.text === '') problems.push('text must be a non-empty string')
  const extra = Object.keys(b).filter((k) => k !== 'text' && k !== 'blocks')
  if (extra.length > 0) problems.push(`unexpected fields ${extra.join(', ')}`)
  if (!Array.isArray(b.blocks) || b.blocks.length === 0) return [...problems, 'blocks missing']
  for (const block of b.blocks as Array<{
    type?: string
    text?: { type?: string; text?: string }
  }>) {
    const text = block.text?.text ?? ''
    if (block.type === 'header') {
      if (block.text?.type !== 'plain_text') problems.push('header text must be plain_text')
      if (text.length === 0 || text.length > 150) problems.push('header text 1..150 characters')
    } else if (block.type === 'section') {
      if (block.text?.type !== 'mrkdwn') problems.push('section text must be mrkdwn')
      if (text.length === 0 || text.length > 3000) problems.push('section text 1..3000 characters')
      if (/<|>|&(?!amp;|lt;|gt;)/.test(text)) problems.push(`unescaped control characters: ${text}`)
    } else problems.push(`unexpected block ${block.type}`)
  }
  return problems
}

describe('Slack delivery', () => {
  it("posts Slack's documented incoming-webhook shape, escaping what events bring", async () => {
    const hostile = {
      ...PAYLOAD,
      issue: {
        ...PAYLOAD.issue,
        title: `<!channel> a & b <https://evil.example|click> ${'x'.repeat(4000)}`,
      },
    }
    const { id } = await seed('slack', hostile)
    expect(await dispatcher().runOnce()).toMatchObject({ delivered: 1 })
    const [request] = receiver.requests
    if (!request) throw new Error('nothing received')
    expect(request.headers['content-type']).toBe('application/json')
    expect(request.headers['x-tis-signature']).toBeUndefined()
    const body = JSON.parse(request.body.toString('utf8')) as {
      text: string
      blocks: Array<{ type: string; text: { text: string } }>
    }
    expect(slackShapeProblems(body)).toEqual([])
    expect(
      body.text.startsWith(
        'New issue in contract: &lt;!channel&gt; a &amp; b &lt;https://evil.example|click&gt; x',
      ),
    ).toBe(true)
    expect(body.blocks[0]?.text.text).toBe('New issue in contract')
    expect(body.blocks[1]?.text.text).toContain('*Environment:* production')
    expect(body.blocks[1]?.text.text).toContain(
      '*Issue:* &lt;!channel&gt; a &amp; b &lt;https://evil.example|click&gt; xxx',
    )
    // Each value is clipped to 300 characters before escaping: the title's line ends in "…".
    expect(body.blocks[1]?.text.text).toMatch(/x…\n/)
    expect(
      slackShapeProblems({
        text: 'x',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '<!channel>' } }],
      }),
    ).toHaveLength(1)
    expect((await row(id)).status).toBe('delivered')
  })
})
