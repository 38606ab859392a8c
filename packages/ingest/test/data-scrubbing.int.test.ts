// Data scrubbing as a host that embeds the engine sees it, over the real store on PGlite: the
// per-project settings (`…/data_scrubbing`), who may change them, how bad bodies are refused,
// and that they apply to the next accepted event (and only to it) on every instance.

import {
  type AdminTestEngine,
  bearer,
  openAdminTestEngine,
  TEST_ADMIN_TOKEN,
} from '@tis/test-utils/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine, type Engine, type EngineRequest } from '../src/index'

const DEFAULTS = { enabled: true, extra_fields: [], safe_fields: [], scrub_ip_addresses: false }

let base: AdminTestEngine
let e: Engine

beforeAll(async () => {
  base = await openAdminTestEngine()
  e = base.engine
}, 60_000)
afterAll(() => base?.close())

/** A project owned by a new user, its API key, and a member's token. */
async function project() {
  const suffix = Math.random().toString(36).slice(2)
  const owner = await base.user(`owner-${suffix}@example.com`)
  const member = await base.user(`member-${suffix}@example.com`)
  const created = await e.management.createProject({
    headers: bearer(owner),
    body: { project: { name: 'Shop', integration_kind: 'node' } },
  })
  const id = (created.body as { project: { id: string } }).project.id
  await e.management.addMember({
    headers: bearer(owner),
    params: { id },
    body: { member: { email: `member-${suffix}@example.com` } },
  })
  const key = await e.management.createApiKey({ headers: bearer(owner), params: { id } })
  return { id, owner, member, key: (key.body as { token: string }).token }
}

const put = (id: string, token: string, request: Partial<EngineRequest>) =>
  e.management.setDataScrubbing({ headers: bearer(token), params: { id }, ...request })
const get = (id: string, token: string) =>
  e.management.getDataScrubbing({ headers: bearer(token), params: { id } })

/** Sends one log event with this context and reads back the stored context. */
async function stored(
  engine: Engine,
  p: { id: string; owner: string; key: string },
  context: object,
) {
  const res = await engine.ingest.ingestEvent({
    headers: bearer(p.key),
    body: { event: { event_type: 'log', message: 'checkout', context } },
  })
  expect(res.status).toBe(201)
  const eventId = (res.body as { id: string }).id
  const read = await e.reads.getEvent({
    headers: bearer(p.owner),
    params: { id: p.id, event_id: eventId },
  })
  return (read.body as { event: { context: Record<string, unknown> } }).event.context
}

describe('data-scrubbing settings', () => {
  it('answers the defaults, lets the owner change them and refuses members', async () => {
    const p = await project()
    expect(await get(p.id, p.member)).toMatchObject({
      status: 200,
      body: { data_scrubbing: DEFAULTS },
    })
    const body = { data_scrubbing: { extra_fields: ['ssn', 'SSN', 'customer_note'] } }
    expect(await put(p.id, p.member, { body })).toMatchObject({ status: 403 })
    expect(await put(p.id, p.owner, { body })).toMatchObject({
      status: 200,
      body: { data_scrubbing: { ...DEFAULTS, extra_fields: ['ssn', 'customer_note'] } },
    })
    // An absent field keeps its value; the administrator may change it too.
    expect(
      await put(p.id, TEST_ADMIN_TOKEN, { body: { data_scrubbing: { scrub_ip_addresses: true } } }),
    ).toMatchObject({
      status: 200,
      body: {
        data_scrubbing: {
          ...DEFAULTS,
          extra_fields: ['ssn', 'customer_note'],
          scrub_ip_addresses: true,
        },
      },
    })
    expect((await get(p.id, p.owner)).body).toMatchObject({
      data_scrubbing: { extra_fields: ['ssn', 'customer_note'], scrub_ip_addresses: true },
    })
    expect(
      (
        await e.management.getDataScrubbing({
          headers: bearer(p.owner),
          params: { id: crypto.randomUUID() },
        })
      ).status,
    ).toBe(404)
  })

  it('refuses a body that is not the envelope, or a field of the wrong type, with a 422 naming it', async () => {
    const p = await project()
    const cases: Array<[Partial<EngineRequest>, number, RegExp]> = [
      [{ body: { enabled: false } }, 422, /data_scrubbing/],
      [{ body: { data_scrubbing: 'off' } }, 422, /data_scrubbing/],
      [{ body: [] }, 422, /data_scrubbing/],
      [{ text: '' }, 422, /data_scrubbing/],
      [{ body: { data_scrubbing: { enabled: 'no' } } }, 422, /enabled must be a boolean/],
      [
        { body: { data_scrubbing: { extra_fields: 'ssn' } } },
        422,
        /extra_fields must be an array of strings/,
      ],
      [
        { body: { data_scrubbing: { safe_fields: [1] } } },
        422,
        /safe_fields\[0\] must be a string/,
      ],
      [
        { body: { data_scrubbing: { safe_fields: [''] } } },
        422,
        /safe_fields\[0\] must not be empty/,
      ],
      [
        { body: { data_scrubbing: { scrub_ip_addresses: 1 } } },
        422,
        /scrub_ip_addresses must be a boolean/,
      ],
      [{ body: { data_scrubbing: { enabled: false, colour: 'red' } } }, 422, /colour/],
      [{ text: '{"data_scrubbing":' }, 400, /not valid JSON/],
    ]
    for (const [request, status, message] of cases) {
      const res = await put(p.id, p.owner, request)
      expect(res.status, JSON.stringify(request)).toBe(status)
      expect(JSON.stringify(res.body)).toMatch(message)
    }
    expect((await get(p.id, p.owner)).body).toEqual({ data_scrubbing: DEFAULTS })
  })
})

describe('data scrubbing on ingest', () => {
  it('filters by default and says what it filtered, never what the values were', async () => {
    const p = await project()
    const context = await stored(e, p, {
      db_password: 'hunter2',
      dsn: 'postgres://app:s3cr3t@db.internal:5432/shop',
      order: { card: '4111 1111 1111 1111', items: 3 },
      session_id: 'sess-42',
      customer_note: 'leave at the door',
    })
    expect(context).toMatchObject({
      db_password: '[Filtered]',
      dsn: 'postgres://app:[Filtered]@db.internal:5432/shop',
      order: { card: '[Filtered]', items: 3 },
      session_id: 'sess-42',
      customer_note: 'leave at the door',
      data_scrubbing: { filtered: 3 },
    })
    const report = context['data_scrubbing'] as { rules: Record<string, number> }
    expect(report.rules).toEqual({ sensitive_key: 1, url_password: 1, credit_card: 1 })
    expect(JSON.stringify(context)).not.toMatch(/hunter2|s3cr3t|4111/)
  })

  it('applies a change to the next event on, not to those stored before', async () => {
    const p = await project()
    const before = await stored(e, p, { customer_note: 'ring twice', ip_address: '203.0.113.7' })
    expect(before).toMatchObject({ customer_note: 'ring twice', ip_address: '203.0.113.7' })
    await put(p.id, p.owner, {
      body: {
        data_scrubbing: {
          extra_fields: ['customer_note'],
          safe_fields: ['db_password'],
          scrub_ip_addresses: true,
        },
      },
    })
    const after = await stored(e, p, {
      customer_note: 'ring twice',
      db_password: 'kept-on-purpose',
      ip_address: '203.0.113.7',
    })
    expect(after).toMatchObject({
      customer_note: '[Filtered]',
      db_password: 'kept-on-purpose',
      ip_address: '[Filtered]',
    })
    // The event stored before keeps what it was stored with.
    expect(await stored(e, p, {})).not.toHaveProperty('customer_note')
    await put(p.id, p.owner, { body: { data_scrubbing: { enabled: false } } })
    expect(await stored(e, p, { password: 'as-sent' })).toMatchObject({ password: 'as-sent' })
    expect(await stored(e, p, { password: 'as-sent' })).not.toHaveProperty('data_scrubbing')
  })

  it("reaches another instance within the credential cache's second", async () => {
    const p = await project()
    const other = createEngine({
      store: base.store,
      config: {
        projection: { run: false },
        alerts: { worker: false },
        retention: { intervalSeconds: 0 },
      },
    })
    try {
      // The other instance caches the credential (and with it the settings) on its first event.
      expect(await stored(other, p, { customer_note: 'x' })).toMatchObject({ customer_note: 'x' })
      await put(p.id, p.owner, { body: { data_scrubbing: { extra_fields: ['customer_note'] } } })
      expect(await stored(e, p, { customer_note: 'x' })).toMatchObject({
        customer_note: '[Filtered]',
      })
      await new Promise((r) => setTimeout(r, 1_100))
      expect(await stored(other, p, { customer_note: 'x' })).toMatchObject({
        customer_note: '[Filtered]',
      })
    } finally {
      await other.stop()
    }
  })
})
