import { describe, expect, it } from 'vitest'
import { runAgainstFakeServer } from './fake-server'
import { EXIT } from './run'

const PROJECT = '01a203af-ac77-79d4-9708-1fd9c9d94c22'
const CHANNEL = '01a203af-ac77-79d4-9708-1fd9c9d94c23'
const BASE = `http://tis.test/api/v1/projects/${PROJECT}`
const AT = '2026-01-01T00:00:00.000Z'
const HOOK = {
  id: CHANNEL,
  name: 'ops',
  type: 'webhook',
  url: 'https://hooks.example.com/x',
  to: null,
  created_at: AT,
}
const SECRET = 'f'.repeat(64)

/** The CLI against a fake server; the requests it sent without their headers. */
async function run(argv: string[], answer: { status: number; body?: unknown }) {
  const r = await runAgainstFakeServer(argv, answer, {
    TIS_TOKEN: 'tis_user_t',
    TIS_URL: 'http://tis.test',
  })
  return { ...r, sent: r.sent.map(({ headers: _, ...request }) => request) }
}

describe('tis alerts', () => {
  it('adds a webhook channel, printing its secret once', async () => {
    const r = await run(
      ['alerts', 'channels', 'add', PROJECT, 'webhook', HOOK.url, '--name', 'ops'],
      { status: 201, body: { alert_channel: HOOK, secret: SECRET } },
    )
    expect(r.code).toBe(EXIT.ok)
    expect(r.sent).toEqual([
      {
        method: 'POST',
        url: `${BASE}/alert_channels`,
        body: { name: 'ops', type: 'webhook', url: HOOK.url },
      },
    ])
    expect(r.stdout).toContain(`Signing secret (shown only now): ${SECRET}`)
  })

  it('sends email recipients as `to` and lists channels without secrets', async () => {
    const add = await run(
      ['alerts', 'channels', 'add', PROJECT, 'email', 'a@x.io,b@x.io', '--name', 'mail'],
      {
        status: 422,
        body: {
          errors: [
            'type email needs the server to send mail: set SERVICE_SMTP_HOST and SERVICE_SMTP_FROM',
          ],
        },
      },
    )
    expect(add.sent[0]?.body).toEqual({ name: 'mail', type: 'email', to: 'a@x.io,b@x.io' })
    expect(add.code).toBe(EXIT.api)
    expect(add.stderr).toContain('SERVICE_SMTP_HOST')
    const list = await run(['alerts', 'channels', 'list', PROJECT], {
      status: 200,
      body: { alert_channels: [HOOK] },
    })
    expect(list.stdout).toMatch(/ID\s+NAME\s+TYPE\s+TARGET\n/)
    expect(list.stdout).toContain(`${CHANNEL}  ops   webhook  ${HOOK.url}`)
  })

  it('adds a spike rule with its numbers and filters', async () => {
    const rule = {
      id: CHANNEL,
      name: 'storm',
      trigger: 'spike',
      channel_ids: [CHANNEL],
      environment: 'production',
      level: null,
      threshold: 100,
      window_seconds: 300,
      quiet_seconds: 3600,
      created_at: AT,
    }
    const r = await run(
      [
        'alerts',
        'rules',
        'add',
        PROJECT,
        'spike',
        `${CHANNEL}, ${CHANNEL}x`,
        '--name',
        'storm',
        '--threshold',
        '100',
        '--window-seconds',
        '300',
        '--environment',
        'production',
      ],
      { status: 201, body: { alert_rule: rule } },
    )
    expect(r.code).toBe(EXIT.ok)
    expect(r.sent[0]).toEqual({
      method: 'POST',
      url: `${BASE}/alert_rules`,
      body: {
        name: 'storm',
        trigger: 'spike',
        channel_ids: [CHANNEL, `${CHANNEL}x`],
        environment: 'production',
        threshold: 100,
        window_seconds: 300,
      },
    })
    expect(r.stdout).toContain('>100/300s')
  })

  it('lists deliveries with the status filter, tests and deletes', async () => {
    const deliveries = await run(
      ['alerts', 'deliveries', PROJECT, '--status', 'failed', '--limit', '5'],
      { status: 200, body: { alert_deliveries: [], next_cursor: null } },
    )
    expect(deliveries.sent[0]?.url).toBe(`${BASE}/alert_deliveries?status=failed&limit=5`)
    expect(deliveries.stdout).toBe('(none)\n')
    const test = await run(['alerts', 'test', PROJECT, CHANNEL], {
      status: 202,
      body: { alert_delivery: { id: 'd1', channel_name: 'ops' } },
    })
    expect(test.sent[0]).toMatchObject({
      method: 'POST',
      url: `${BASE}/alert_channels/${CHANNEL}/test`,
    })
    expect(test.stdout).toBe('Queued test delivery d1 to ops.\n')
    const del = await run(['alerts', 'rules', 'delete', PROJECT, CHANNEL], { status: 204 })
    expect(del.sent[0]).toMatchObject({ method: 'DELETE', url: `${BASE}/alert_rules/${CHANNEL}` })
    expect(del.code).toBe(EXIT.ok)
  })

  it.each([
    [['alerts', 'channels', 'add', PROJECT, 'webhook', 'https://x.example'], /needs --name <name>/],
    [
      ['alerts', 'rules', 'add', PROJECT, 'spike', CHANNEL, '--name', 'n', '--threshold', 'lots'],
      /--threshold must be an integer/,
    ],
  ])('refuses %j as a usage error', async (argv, message) => {
    const r = await run(argv, { status: 200, body: {} })
    expect(r.code).toBe(EXIT.usage)
    expect(r.stderr).toMatch(message)
    expect(r.sent).toEqual([])
  })
})
