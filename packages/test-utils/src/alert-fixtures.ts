import { randomBytes, randomUUID } from 'node:crypto'

// Rows of the alert tables written with SQL, for the delivery tests: creating channels and
// recording notifications belong to other parts (the management API, the projection), and these
// tests need the rows as those parts store them, nothing more.

/** Runs one statement with text parameters (a store probe's `query`, or a driver's). */
export type AlertSql = (sql: string, params: readonly string[]) => Promise<unknown>

/** A channel to insert; `id` and `secret` are generated when absent. */
export interface AlertChannelFixture {
  readonly projectId: string
  readonly type: 'webhook' | 'slack' | 'email'
  readonly url?: string
  /** Email recipients, stored comma-separated. */
  readonly to?: readonly string[]
  /** @default a random hex key for a webhook, none otherwise */
  readonly secret?: string | null
  readonly name?: string
}

/** Inserts an alert channel and resolves its id and secret. */
export async function insertAlertChannel(sql: AlertSql, c: AlertChannelFixture) {
  const id = randomUUID()
  const secret =
    c.secret !== undefined
      ? c.secret
      : c.type === 'webhook'
        ? randomBytes(24).toString('hex')
        : null
  await sql(
    `insert into alert_channels (id, project_id, name, type, url, email_to, secret, created_at)
     values ($1::uuid, $2::uuid, $3, $4, nullif($5, ''), nullif($6, ''), nullif($7, ''), now())`,
    [
      id,
      c.projectId,
      c.name ?? `${c.type} channel`,
      c.type,
      c.url ?? '',
      (c.to ?? []).join(', '),
      secret ?? '',
    ],
  )
  return { id, secret }
}

/** A pending notification to insert. */
export interface AlertDeliveryFixture {
  readonly projectId: string
  readonly channelId: string
  readonly channelType: 'webhook' | 'slack' | 'email'
  readonly nextAttemptAt: Date
  /** @default 'new_issue' */
  readonly trigger?: string
  /** @default {} */
  readonly payload?: object
  /** @default nextAttemptAt */
  readonly createdAt?: Date
  readonly ruleName?: string | null
}

/** Inserts a pending delivery (no rule row: `rule_id` stays null) and resolves its id. */
export async function insertAlertDelivery(sql: AlertSql, d: AlertDeliveryFixture) {
  const id = randomUUID()
  await sql(
    `insert into alert_deliveries (id, project_id, rule_name, channel_id, channel_name,
       channel_type, trigger, payload, status, next_attempt_at, created_at)
     values ($1::uuid, $2::uuid, nullif($3, ''), $4::uuid, 'a channel', $5, $6, $7::text::jsonb,
       'pending', $8::timestamptz, $9::timestamptz)`,
    [
      id,
      d.projectId,
      d.ruleName ?? '',
      d.channelId,
      d.channelType,
      d.trigger ?? 'new_issue',
      JSON.stringify(d.payload ?? {}),
      d.nextAttemptAt.toISOString(),
      (d.createdAt ?? d.nextAttemptAt).toISOString(),
    ],
  )
  return id
}
