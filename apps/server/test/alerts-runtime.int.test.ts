// The alerts worker of the server over a real PGlite store: rounds until the outbox is empty,
// the missed-monitor scan when the store has one, errors logged and never thrown, a stop that
// lets the attempt in flight finish, email through a real SMTP server, what an attempt records
// without SMTP settings or a webhook sender, and the server's wiring.

import { readFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { PGlite } from '@electric-sql/pglite'
import { createAlertsWorker } from '@tis/ingest'
import { createPgliteStore, type PostgresIngestStore } from '@tis/storage-postgres'
import { insertAlertChannel, insertAlertDelivery } from '@tis/test-utils/alert-fixtures'
import { type AlertReceiver, startAlertReceiver } from '@tis/test-utils/alert-receiver'
import { ALERTS_TEST_ENV, SUITE_ENV } from '@tis/test-utils/server'
import { seedProject } from '@tis/test-utils/store-fixtures'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSmtpMailer, type SmtpSettings } from '../src/alerts-mailer'
import { createFetchWebhookSend } from '../src/alerts-webhook'
import { loadConfig } from '../src/config'
import { alertsUserAgent } from '../src/engine-options'
import type { Logger } from '../src/logger'
import { createServer } from '../src/server'

let db: PGlite
let store: PostgresIngestStore
let receiver: AlertReceiver
const lines: string[] = []
const logger: Logger = {
  debug: () => {},
  info: () => {},
  warn: (m, f) => lines.push(`warn ${m} ${JSON.stringify(f)}`),
  error: (m, f) => lines.push(`error ${m} ${JSON.stringify(f)}`),
}

beforeAll(async () => {
  db = await PGlite.create()
  store = createPgliteStore(db)
  await store.migrate()
  receiver = await startAlertReceiver()
}, 60_000)
afterAll(async () => {
  await receiver?.close()
  await db?.close()
})

// Each test works a week before the one before it (the outbox is shared; see the store contract).
let epoch = Date.UTC(2026, 10, 1)
let clock: Date
beforeEach(async () => {
  epoch -= 7 * 24 * 3600_000
  clock = new Date(epoch)
  lines.length = 0
  await receiver.reset()
})

const sql = (text: string, params: readonly string[]) => db.query(text, [...params])

async function seedDeliveries(count: number, type: 'webhook' | 'email' = 'webhook') {
  const { projectId } = await seedProject(store)
  const channel = await insertAlertChannel(sql, {
    projectId,
    type,
    ...(type === 'email' ? { to: ['ops@example.com'] } : { url: receiver.url }),
  })
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    ids.push(
      await insertAlertDelivery(sql, {
        projectId,
        channelId: channel.id,
        channelType: type,
        nextAttemptAt: clock,
        trigger: 'test',
      }),
    )
  }
  return ids
}

async function statuses(ids: readonly string[]) {
  const { rows } = await db.query<{ status: string; n: number }>(
    `select status, count(*)::int as n from alert_deliveries where id = any($1::uuid[])
      group by status order by status`,
    [ids],
  )
  return Object.fromEntries(rows.map((r) => [r.status, r.n]))
}

/** The engine's alerts worker as the server configures it (a loopback receiver is allowed here). */
function createAlertsRuntime(options: {
  store: PostgresIngestStore
  logger: Logger
  now: () => Date
  batchSize?: number
  timeoutMs?: number
  smtp?: SmtpSettings
  /** `false`: no webhook sender, as a host that passes none. */
  webhook?: false
}) {
  const mailer = options.smtp ? createSmtpMailer(options.smtp) : null
  const worker = createAlertsWorker({
    store: options.store,
    logger: options.logger,
    now: options.now,
    intervalMs: 1_000,
    leaseMs: 60_000,
    ...(options.webhook === false ? {} : { webhook: createFetchWebhookSend() }),
    mailer,
    userAgent: alertsUserAgent(),
    allowTarget: async () => null,
    ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  })
  return {
    tick: () => worker.runOnce(),
    async stop() {
      await worker.stop()
      mailer?.close()
    },
  }
}

describe('the alerts worker', () => {
  it('delivers in rounds of the batch size until a claim comes back short', async () => {
    const ids = await seedDeliveries(45)
    const runtime = createAlertsRuntime({ store, logger, now: () => clock, batchSize: 20 })
    await runtime.tick()
    expect(await statuses(ids)).toEqual({ delivered: 45 })
    const delivered = receiver.requests.map((r) => r.headers['x-tis-delivery'])
    expect(new Set(delivered).size).toBe(45)
    const { version } = JSON.parse(
      await readFile(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { version: string }
    expect(receiver.requests[0]?.headers['user-agent']).toBe(`tis-alerts/${version}`)
    await runtime.stop()
  })

  it('runs the missed-monitor scan first', async () => {
    const calls: Array<[Date, number]> = []
    const withScan = Object.assign(Object.create(store) as PostgresIngestStore, {
      markMissedMonitors: async (now: Date, limit: number) => {
        calls.push([now, limit])
        return 0
      },
    })
    const runtime = createAlertsRuntime({ store: withScan, logger, now: () => clock })
    await runtime.tick()
    expect(calls).toEqual([[clock, 100]])
    await createAlertsRuntime({ store, logger, now: () => clock }).tick()
    expect(lines).toEqual([])
  })

  it('logs a failed round and keeps going', async () => {
    const closed = await PGlite.create()
    const broken = createPgliteStore(closed)
    await closed.close()
    const runtime = createAlertsRuntime({ store: broken, logger, now: () => clock })
    await expect(runtime.tick()).resolves.toBeUndefined()
    // Both halves of the tick fail on the closed database, each logged, neither thrown.
    expect(lines.join('\n')).toMatch(/^error missed-monitor scan failed/m)
    expect(lines.join('\n')).toMatch(/^error alert delivery round failed; retrying/m)
  })

  it('on stop, lets the attempt in flight finish and records it', async () => {
    const [id] = await seedDeliveries(1)
    receiver.answer('hang')
    const runtime = createAlertsRuntime({ store, logger, now: () => clock, timeoutMs: 300 })
    const round = runtime.tick()
    const deadline = Date.now() + 5_000
    while (receiver.requests.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10))
    }
    expect(receiver.requests).toHaveLength(1)
    await runtime.stop()
    await round
    const { rows } = await db.query<{
      status: string
      last_error: string
      lease_until: Date | null
    }>('select status, last_error, lease_until from alert_deliveries where id = $1::uuid', [id])
    expect(rows[0]).toEqual({
      status: 'pending',
      last_error: 'no answer within 300 ms',
      lease_until: null,
    })
  })

  it('sends an email channel through the SMTP settings to a real SMTP server', async () => {
    const received: Array<{ to: string[]; raw: string }> = []
    const smtp = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (c: Buffer) => chunks.push(c))
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          })
          callback()
        })
      },
    })
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()))
    try {
      const port = (smtp.server.address() as AddressInfo).port
      const ids = await seedDeliveries(1, 'email')
      const runtime = createAlertsRuntime({
        store,
        logger,
        now: () => clock,
        smtp: { host: '127.0.0.1', port, secure: false, from: 'alerts@tis.example' },
      })
      await runtime.tick()
      await runtime.stop()
      expect(await statuses(ids)).toEqual({ delivered: 1 })
      expect(received).toHaveLength(1)
      expect(received[0]?.to).toEqual(['ops@example.com'])
      const raw = received[0]?.raw ?? ''
      // The subject has quotes, so nodemailer sends it encoded (RFC 2047).
      expect(raw).toMatch(/^Subject: =\?UTF-8\?Q\?=5Btis=5D_Test_notification_for_contract/m)
      expect(raw).toContain('\r\nTest notification for contract: the channel "a channel" works\r\n')
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()))
    }
  })

  it('without SMTP settings, an email attempt fails with the reason and is retried', async () => {
    const [id] = await seedDeliveries(1, 'email')
    await createAlertsRuntime({ store, logger, now: () => clock }).tick()
    const { rows } = await db.query<{ status: string; last_error: string }>(
      'select status, last_error from alert_deliveries where id = $1::uuid',
      [id],
    )
    expect(rows[0]).toEqual({
      status: 'pending',
      last_error: 'email is not configured (SERVICE_SMTP_*)',
    })
  })

  it('without a webhook sender, a webhook attempt sends nothing, fails with the reason and is retried', async () => {
    const [id] = await seedDeliveries(1)
    await createAlertsRuntime({ store, logger, now: () => clock, webhook: false }).tick()
    expect(receiver.requests).toHaveLength(0)
    const { rows } = await db.query<{ status: string; attempts: number; last_error: string }>(
      'select status, attempts, last_error from alert_deliveries where id = $1::uuid',
      [id],
    )
    expect(rows[0]).toEqual({
      status: 'pending',
      attempts: 1,
      last_error: 'no webhook sender configured (adapters.webhook)',
    })
  })
})

describe('createServer', () => {
  it('starts the alerts worker with the server and stops it on close', async () => {
    const ids = await seedDeliveries(3)
    // The receiver listens on loopback: a private target, allowed for this server only.
    const env = { ...SUITE_ENV, ...ALERTS_TEST_ENV }
    const server = await createServer(loadConfig(env), {
      store,
      logger,
      now: () => clock,
      alertsIntervalMs: 20,
    })
    try {
      expect(server.engine.workers.alerts).toBe(true)
      const deadline = Date.now() + 10_000
      while (Date.now() < deadline && (await statuses(ids))['delivered'] !== 3) {
        await new Promise((r) => setTimeout(r, 25))
      }
      expect(await statuses(ids)).toEqual({ delivered: 3 })
    } finally {
      // The server closes the store it was given: this suite's last test.
      await server.close()
    }
  })
})
