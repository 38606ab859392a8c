// Two dispatchers, each over its own PostgreSQL store and connections (as two server processes
// on one database), draining one outbox at once into a real HTTP receiver: every notification
// arrives exactly once.

import { randomBytes } from 'node:crypto'
import { createAlertDispatcher, type EngineLogger } from '@tis/ingest'
import { insertAlertChannel, insertAlertDelivery } from '@tis/test-utils/alert-fixtures'
import { type AlertReceiver, startAlertReceiver } from '@tis/test-utils/alert-receiver'
import { testWebhookSend } from '@tis/test-utils/alert-sender'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import { seedProject } from '@tis/test-utils/store-fixtures'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openPostgresStore, type PostgresIngestStore } from '../src/index'

const COUNT = 60

describeWithTestDatabase('alert dispatch on PostgreSQL', (url) => {
  const schema = `tis_test_${randomBytes(6).toString('hex')}`
  const client = { max: 4, onnotice: () => {}, connection: { search_path: schema } } as const
  let admin: postgres.Sql
  let stores: PostgresIngestStore[]
  let receiver: AlertReceiver
  const errors: string[] = []
  const logger: EngineLogger = {
    warn: (m) => errors.push(m),
    error: (m) => errors.push(m),
  }

  beforeAll(async () => {
    admin = postgres(url, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create schema ${schema}`)
    stores = [await openPostgresStore(url, { client }), await openPostgresStore(url, { client })]
    receiver = await startAlertReceiver()
  }, 60_000)
  afterAll(async () => {
    await receiver?.close()
    await Promise.all((stores ?? []).map((s) => s.close()))
    await admin?.unsafe(`drop schema ${schema} cascade`)
    await admin?.end()
  })

  it('two processes draining one outbox deliver each notification exactly once', async () => {
    const [first, second] = stores as [PostgresIngestStore, PostgresIngestStore]
    const sql = postgres(url, client)
    try {
      const query = (text: string, params: readonly string[]) => sql.unsafe(text, [...params])
      const { projectId } = await seedProject(first)
      const channel = await insertAlertChannel(query, {
        projectId,
        type: 'webhook',
        url: receiver.url,
      })
      const now = new Date()
      for (let i = 0; i < COUNT; i++) {
        await insertAlertDelivery(query, {
          projectId,
          channelId: channel.id,
          channelType: 'webhook',
          nextAttemptAt: now,
        })
      }
    } finally {
      await sql.end()
    }
    const drain = async (store: PostgresIngestStore) => {
      const dispatcher = createAlertDispatcher({
        store,
        send: { webhook: testWebhookSend },
        logger,
        batchSize: 5,
      })
      let rounds = 0
      while ((await dispatcher.runOnce()).claimed > 0) rounds++
      return rounds
    }
    const rounds = await Promise.all([drain(first), drain(second), drain(first), drain(second)])
    const ids = receiver.requests.map((r) => r.headers['x-tis-delivery'])
    expect(ids).toHaveLength(COUNT)
    expect(new Set(ids).size).toBe(COUNT)
    // Both stores took part (each drainer claims at least once when the other is busy sending).
    expect(rounds.every((n) => n > 0)).toBe(true)
    expect(errors).toEqual([])
  })
})
