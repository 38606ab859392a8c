import type {
  AlertChannelRecord,
  AlertChannelType,
  AlertRuleRecord,
  AlertTrigger,
} from '@tis/ingest'
import { splitRecipients } from './alert-delivery-rows'
import { type Row, textOrNull } from './executor'

// Column lists and row → record mappers of the alert tables (migration 16). The casts are the
// trust boundary: the columns are constrained by the migration and written only by this package.

/** Columns of an {@link AlertChannelRecord} (alias `c`); never the secret. */
export const ALERT_CHANNEL_COLUMNS = `c.id::text as id, c.project_id::text as project_id, c.name,
  c.type, c.url, c.email_to, c.created_at`

/** Maps a row selected with {@link ALERT_CHANNEL_COLUMNS}. */
export function toAlertChannel(row: Row): AlertChannelRecord {
  const to = textOrNull(row, 'email_to')
  return {
    id: row['id'] as string,
    projectId: row['project_id'] as string,
    name: row['name'] as string,
    type: row['type'] as AlertChannelType,
    url: textOrNull(row, 'url'),
    // Stored comma-separated: an address the engine accepts holds no comma.
    to: splitRecipients(to),
    createdAt: row['created_at'] as Date,
  }
}

/** Columns of an {@link AlertRuleRecord} (alias `r`), its channels in their given order. */
export const ALERT_RULE_COLUMNS = `r.id::text as id, r.project_id::text as project_id, r.name,
  r.trigger, r.environment, r.level, r.threshold, r.window_seconds, r.quiet_seconds, r.created_at,
  coalesce((select array_agg(rc.channel_id::text order by rc.position, rc.channel_id)
     from alert_rule_channels rc where rc.rule_id = r.id), '{}'::text[]) as channel_ids`

/** Maps a row selected with {@link ALERT_RULE_COLUMNS}. */
export function toAlertRule(row: Row): AlertRuleRecord {
  return {
    id: row['id'] as string,
    projectId: row['project_id'] as string,
    name: row['name'] as string,
    trigger: row['trigger'] as AlertTrigger,
    channelIds: row['channel_ids'] as string[],
    environment: textOrNull(row, 'environment'),
    level: textOrNull(row, 'level'),
    threshold: (row['threshold'] as number | null) ?? null,
    windowSeconds: (row['window_seconds'] as number | null) ?? null,
    quietSeconds: row['quiet_seconds'] as number,
    createdAt: row['created_at'] as Date,
  }
}
