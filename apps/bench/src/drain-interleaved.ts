import { randomUUID } from 'node:crypto'
import { createClient } from '@clickhouse/client'
import {
  createAnalyticsDrainer,
  createClickHouseAnalyticsStore,
  eventRow,
  type TimestampLayout,
} from '@tis/analytics-clickhouse'
import type { OutboxRecord, WriteOp } from '@tis/ingest'
import { openPostgresStore } from '@tis/storage-postgres'

/** Seconds the drain and the direct insert took, summed over the rounds. */
export interface InterleavedDrain {
  readonly rows: number
  readonly drainSeconds: number
  readonly directSeconds: number
  /** One line per round: rows, drain ms, direct ms. */
  readonly rounds: readonly string[]
}

/** Options of {@link measureDrainInterleaved}. */
export interface InterleavedDrainOptions {
  /** A PostgreSQL database of its own (migrated here). */
  readonly postgresUrl: string
  readonly clickhouseUrl: string
  /** A ClickHouse database of its own (migrated here). */
  readonly database: string
  /** Rows per round (the drainer's batch size). */
  readonly batch: number
  readonly rounds: number
}

function eventOp(projectId: string, i: number): WriteOp {
  const at = new Date()
  return {
    type: 'event',
    id: randomUUID(),
    projectId,
    receivedAt: at,
    occurredAt: at,
    event: {
      event_type: 'error',
      message: "TypeError: Cannot read properties of undefined (reading 'id')",
      level: 'error',
      occurred_at: at.toISOString(),
      environment: 'production',
      release: 'api@1.42.0',
      trace_id: randomUUID().replaceAll('-', ''),
      transaction_name: 'GET /orders/:id',
      context: {
        exception: { exception_class: 'TypeError' },
        request: { method: 'GET', url: `https://api.acme.test/orders/${i}`, route: '/orders/:id' },
        tags: { region: 'eu-west-1' },
      },
    },
    issue: { hash: 'e'.repeat(64), key: 'message:bench', title: 'TypeError', level: 'error' },
    monitor: null,
    deployment: null,
  } as WriteOp
}

/**
 * The drain next to a direct insert of the same rows, round by round in one process, so both see
 * the same load: `rounds` × `batch` events are accepted on the log and projected, then each round
 * times one drainer batch (claim a range of the log, map, insert into `events_raw`, complete) and
 * right after it a JSONEachRow insert of exactly those rows, already mapped, into a scratch table
 * made `AS events_raw` (no materialized view: the ceiling is slightly generous).
 */
export async function measureDrainInterleaved(
  options: InterleavedDrainOptions,
): Promise<InterleavedDrain> {
  const store = await openPostgresStore(options.postgresUrl, { analytics: true })
  const client = createClient({ url: options.clickhouseUrl })
  try {
    const userId = randomUUID()
    const projectId = randomUUID()
    const now = new Date()
    await store.createUser({
      id: userId,
      email: `${userId}@bench`,
      tokenDigest: userId,
      createdAt: now,
    })
    await store.createProject({
      id: projectId,
      name: 'drain',
      integrationKind: 'node',
      ownerId: userId,
      createdAt: now,
    })
    const total = options.batch * options.rounds
    for (let i = 0; i < total; i += 1_000) {
      await store.append(
        Array.from({ length: Math.min(1_000, total - i) }, (_, k) => eventOp(projectId, i + k)),
      )
    }
    while ((await store.project(1_000)).more);

    const analytics = createClickHouseAnalyticsStore(client, { database: options.database })
    await analytics.migrate()
    const scratch = `${options.database}.direct_insert`
    await client.command({ query: `CREATE TABLE ${scratch} AS ${options.database}.events_raw` })
    const [column] = await (
      await client.query({
        query: `SELECT type FROM system.columns WHERE database = '${options.database}' AND table = 'events_raw' AND name = 'occurred_at'`,
        format: 'JSONEachRow',
      })
    ).json<{ type: string }>()
    const layout: TimestampLayout = column?.type.startsWith('DateTime64')
      ? 'datetime64'
      : 'datetime_ms'

    let captured: readonly OutboxRecord[] = []
    const drainer = createAnalyticsDrainer({
      outbox: store.outbox,
      sink: {
        insert(records) {
          captured = records
          return analytics.insert(records)
        },
      },
      batchSize: options.batch,
    })
    const rounds: string[] = []
    let drainMs = 0
    let directMs = 0
    let rows = 0
    for (let i = 0; i < options.rounds; i++) {
      const t0 = performance.now()
      const exported = await drainer.drainOnce()
      const drain = performance.now() - t0
      if (exported !== options.batch) throw new Error(`round ${i}: ${exported} rows drained`)
      const values = captured.map((r) =>
        r.kind === 'event' ? eventRow(r.row, layout) : ({} as never),
      )
      const t1 = performance.now()
      await client.insert({ table: scratch, values, format: 'JSONEachRow' })
      const direct = performance.now() - t1
      drainMs += drain
      directMs += direct
      rows += exported
      rounds.push(`${exported} rows: drain ${drain.toFixed(0)} ms, direct ${direct.toFixed(0)} ms`)
    }
    return { rows, drainSeconds: drainMs / 1_000, directSeconds: directMs / 1_000, rounds }
  } finally {
    await client.close()
    await store.close()
  }
}
