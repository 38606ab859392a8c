import { randomUUID } from 'node:crypto'
import type { AlertPayload } from '@tis/ingest'
import type { StoreProbe } from './store-probe'

// Alert channels and rules written with plain SQL (the alert configuration's own store methods
// belong to another part), and the recorded deliveries read back.

/** Inserts a channel of the project; resolves its id. */
export async function addChannel(
  probe: StoreProbe,
  projectId: string,
  name: string,
  type: 'webhook' | 'slack' | 'email' = 'webhook',
): Promise<string> {
  const id = randomUUID()
  await probe.query(
    `insert into alert_channels (id, project_id, name, type, url, secret, created_at)
     values ($1::uuid, $2::uuid, $3, $4, 'https://hooks.example.com/x', 's3cret', now())`,
    [id, projectId, name, type],
  )
  return id
}

/** Fields of {@link addRule}. */
export interface RuleFields {
  readonly trigger: string
  readonly channelIds: readonly string[]
  readonly name?: string
  readonly environment?: string
  readonly level?: string
  readonly threshold?: number
  readonly windowSeconds?: number
  /** @default 0 */
  readonly quietSeconds?: number
}

/** Inserts a rule of the project with its channels; resolves its id. */
export async function addRule(probe: StoreProbe, projectId: string, f: RuleFields) {
  const id = randomUUID()
  await probe.query(
    `insert into alert_rules (id, project_id, name, trigger, environment, level, threshold,
       window_seconds, quiet_seconds, created_at)
     values ($1::uuid, $2::uuid, $3, $4, nullif($5, ''), nullif($6, ''),
       nullif($7, '')::int, nullif($8, '')::int, $9::int, now())`,
    [
      id,
      projectId,
      f.name ?? `rule ${f.trigger}`,
      f.trigger,
      f.environment ?? '',
      f.level ?? '',
      String(f.threshold ?? ''),
      String(f.windowSeconds ?? ''),
      String(f.quietSeconds ?? 0),
    ],
  )
  for (const channelId of f.channelIds) {
    await probe.query(
      'insert into alert_rule_channels (rule_id, channel_id) values ($1::uuid, $2::uuid)',
      [id, channelId],
    )
  }
  return id
}

/** A recorded delivery as the contract checks it. */
export interface DeliveryRow {
  readonly trigger: string
  readonly ruleId: string
  readonly ruleName: string
  readonly channelId: string
  readonly channelName: string
  readonly channelType: string
  readonly subjectId: string
  readonly status: string
  readonly attempts: number
  readonly due: boolean
  readonly payload: AlertPayload
}

/** The project's deliveries, oldest first (then by trigger and channel name). */
export async function deliveries(probe: StoreProbe, projectId: string): Promise<DeliveryRow[]> {
  const rows = await probe.query<Record<string, unknown>>(
    `select trigger, rule_id::text as rule_id, rule_name, channel_id::text as channel_id,
       channel_name, channel_type, subject_id::text as subject_id, status, attempts,
       next_attempt_at <= now() and next_attempt_at = created_at as due, payload
     from alert_deliveries where project_id = $1::uuid
     order by created_at, trigger, channel_name`,
    [projectId],
  )
  return rows.map((r) => ({
    trigger: r['trigger'] as string,
    ruleId: r['rule_id'] as string,
    ruleName: r['rule_name'] as string,
    channelId: r['channel_id'] as string,
    channelName: r['channel_name'] as string,
    channelType: r['channel_type'] as string,
    subjectId: r['subject_id'] as string,
    status: r['status'] as string,
    attempts: r['attempts'] as number,
    due: r['due'] as boolean,
    payload: r['payload'] as AlertPayload,
  }))
}

/** How many deliveries of the project have each trigger. */
export async function triggerCounts(probe: StoreProbe, projectId: string) {
  const counts: Record<string, number> = {}
  for (const d of await deliveries(probe, projectId)) {
    counts[d.trigger] = (counts[d.trigger] ?? 0) + 1
  }
  return counts
}
