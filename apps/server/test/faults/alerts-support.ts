import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AlertReceiver } from '@tis/test-utils/alert-receiver'
import {
  ADMIN_TOKEN,
  createClient,
  type ServerProcess,
  SPAWNED_SERVER_ENV,
  startServerProcess,
} from '@tis/test-utils/server'
import postgres from 'postgres'
import { expect } from 'vitest'

// What the alert fault tests share: server processes on one PostgreSQL schema, a project with a
// webhook channel and a `new_issue` rule made through the HTTP API, error events through the
// ingest API, and the delivery log read back over HTTP.

/** The shortest lease the server accepts: a killed process's deliveries come back after 15 s. */
export const LEASE_SECONDS = 15

/** A schema of its own on the run's PostgreSQL, and a temporary working directory. */
export async function alertsDatabase(baseUrl: string) {
  const schema = `tis_alerts_${randomBytes(6).toString('hex')}`
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create schema ${schema}`)
  const url = new URL(baseUrl)
  url.searchParams.set('search_path', schema)
  const dir = await mkdtemp(join(tmpdir(), 'tis-alerts-'))
  const env = {
    ...SPAWNED_SERVER_ENV,
    SERVICE_ALERTS_ALLOW_PRIVATE_TARGETS: 'true',
    SERVICE_ALERTS_LEASE_SECONDS: String(LEASE_SECONDS),
    DATABASE_URL: url.toString(),
  }
  return {
    env,
    dir,
    async drop() {
      await admin.unsafe(`drop schema ${schema} cascade`)
      await admin.end()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** Starts a server process and resolves it with its URL once it listens. */
export async function startAlertsServer(
  env: Record<string, string>,
  dir: string,
): Promise<{ server: ServerProcess; url: string }> {
  const server = startServerProcess(env, dir)
  const [, url] = await server.waitFor(/"msg":"listening","url":"([^"]+)"/, 60_000)
  return { server, url: url! }
}

/**
 * A fresh project with a key, a webhook channel to `receiver` and `rules` `new_issue` rules on
 * it (a rule sends ten messages a minute one by one: more rules, more messages).
 */
export async function alertingProject(url: string, receiver: AlertReceiver, rules = 1) {
  const c = createClient(url)
  const { projectId, key } = await c.projectWithKey()
  const base = `/api/v1/projects/${projectId}`
  const channel = await c.api('POST', `${base}/alert_channels`, {
    token: ADMIN_TOKEN,
    json: { name: 'receiver', type: 'webhook', url: receiver.url },
  })
  expect(channel.status, channel.text).toBe(201)
  for (let i = 1; i <= rules; i++) {
    const rule = await c.api('POST', `${base}/alert_rules`, {
      token: ADMIN_TOKEN,
      json: {
        name: i === 1 ? 'new issues' : `new issues ${i}`,
        trigger: 'new_issue',
        channel_ids: [channel.body.alert_channel.id],
      },
    })
    expect(rule.status, rule.text).toBe(201)
  }
  return { projectId, key, secret: channel.body.secret as string }
}

/** Sends one error event per fingerprint (each opens an issue); every one must get a 201. */
export async function sendErrors(url: string, key: string, fingerprints: readonly string[]) {
  const c = createClient(url)
  for (const fingerprint of fingerprints) {
    const r = await c.ingest('/api/v1/ingest_events', key, {
      event: { event_type: 'error', message: `boom ${fingerprint}`, fingerprint },
    })
    expect(r.status, r.text).toBe(201)
  }
}

/** A row of `GET …/alert_deliveries`, as these tests read it. */
export interface LoggedDelivery {
  readonly id: string
  readonly trigger: string
  readonly status: string
  readonly attempts: number
  readonly response_code: number | null
  readonly last_error: string | null
}

/** Every row of the project's delivery log, all pages. */
export async function deliveryLog(url: string, projectId: string): Promise<LoggedDelivery[]> {
  const c = createClient(url)
  const rows: LoggedDelivery[] = []
  let cursor: string | null = null
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
    const r = await c.api(
      'GET',
      `/api/v1/projects/${projectId}/alert_deliveries?limit=200${query}`,
      {
        token: ADMIN_TOKEN,
      },
    )
    expect(r.status, r.text).toBe(200)
    rows.push(...r.body.alert_deliveries)
    cursor = r.body.next_cursor
  } while (cursor)
  return rows
}

/**
 * The delivery log once no delivery is `pending`: an attempt is recorded right after the
 * receiver's answer, so the last request can be at the receiver before its row is `delivered`.
 */
export async function settledDeliveryLog(url: string, projectId: string) {
  let log: LoggedDelivery[] = []
  await waitUntil(
    async () => {
      log = await deliveryLog(url, projectId)
      return log.every((d) => d.status !== 'pending')
    },
    10_000,
    'every attempt to be recorded',
  )
  return log
}

/** The `X-Tis-Delivery` id of each request the receiver got, in order. */
export const receivedIds = (receiver: AlertReceiver) =>
  receiver.requests.map((r) => String(r.headers['x-tis-delivery']))

/** Polls `done` every 100 ms; rejects with `what` after `timeoutMs`. */
export async function waitUntil(
  done: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
) {
  const until = Date.now() + timeoutMs
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(100)
  }
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
