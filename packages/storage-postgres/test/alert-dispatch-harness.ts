// The dispatch tests' shared setup: the alert dispatcher (@tis/ingest) over this adapter on
// PGlite, a real HTTP receiver on a local port, the documented signature check, and a clock
// the tests move.

import { PGlite } from '@electric-sql/pglite'
import { type AlertDispatcherOptions, createAlertDispatcher, type EngineLogger } from '@tis/ingest'
import { insertAlertChannel, insertAlertDelivery } from '@tis/test-utils/alert-fixtures'
import {
  type AlertReceiver,
  loadDocumentedVerifier,
  startAlertReceiver,
  type VerifyTisSignature,
} from '@tis/test-utils/alert-receiver'
import { testWebhookSend } from '@tis/test-utils/alert-sender'
import { seedProject } from '@tis/test-utils/store-fixtures'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import type { SqlExecutor } from '../src/executor'
import { createPgliteStore, type PostgresIngestStore } from '../src/index'
import { createPgliteExecutor } from '../src/pglite-executor'

/** The facts of a "new issue" notification, as the projection records them. */
export const PAYLOAD = {
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

/** A delivery row as stored. */
export interface Row {
  status: string
  attempts: number
  lease_until: Date | null
  last_error: string | null
  response_code: number | null
  next_attempt_at: Date
  delivered_at: Date | null
}

export let db: PGlite
export let sql: SqlExecutor
export let store: PostgresIngestStore
export let receiver: AlertReceiver
export let verify: VerifyTisSignature
/** What the dispatcher logged in the running test. */
export const warnings: string[] = []
const logger: EngineLogger = {
  warn: (m, f) => warnings.push(`${m} ${JSON.stringify(f)}`),
  error: (m, f) => warnings.push(`${m} ${JSON.stringify(f)}`),
}

// The outbox is shared and a claim takes every due row: each test starts a week before the one
// before it, so nothing an earlier test left is due in it.
let epoch = Date.UTC(2026, 10, 1)
/** The running test's clock. */
export let clock: Date = new Date(epoch)

/** Moves the clock forward. */
export const advance = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000)
}

/** A dispatcher over the store, the clock and the test sender, without jitter. */
export function dispatcher(options: Partial<AlertDispatcherOptions> = {}) {
  return createAlertDispatcher({
    store,
    send: { webhook: testWebhookSend },
    logger,
    now: () => clock,
    random: () => 0.5, // no jitter: waits are the schedule's steps exactly
    userAgent: 'tis-alerts/9.9.9',
    ...options,
  })
}

/** A project, a channel aimed at the receiver and one delivery due now. */
export async function seed(
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

/** The stored delivery. */
export async function row(id: string): Promise<Row> {
  const [r] = await sql.query<Row>(
    `select status, attempts, lease_until, last_error, response_code, next_attempt_at,
            delivered_at from alert_deliveries where id = $1::uuid`,
    [id],
  )
  if (!r) throw new Error(`no delivery ${id}`)
  return r
}

/**
 * Registers the hooks of a dispatch test file: one PGlite store and one receiver for the file,
 * and for each test a fresh clock, an empty log and a reset receiver.
 */
export function useDispatchHarness() {
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

  beforeEach(async () => {
    epoch -= 7 * 24 * 3600_000
    clock = new Date(epoch)
    warnings.length = 0
    await receiver.reset()
  })
}
