import type {
  AlertChannelType,
  AlertDeliveryRecord,
  AlertDeliveryStatus,
  AlertPayload,
  AlertTrigger,
} from '@tis/ingest'
import { dateOrNull, type Row, textOrNull } from './executor'

/** The columns of `alert_deliveries` that {@link toDeliveryRecord} reads, from alias `d`. */
export const DELIVERY_COLUMNS = `d.id::text as id, d.project_id::text as project_id,
  d.rule_id::text as rule_id, d.rule_name, d.channel_id::text as channel_id, d.channel_name,
  d.channel_type, d.trigger, d.subject_id::text as subject_id, d.payload, d.status, d.attempts,
  d.next_attempt_at, d.last_error, d.response_code, d.created_at, d.delivered_at`

/** A delivery row (selected with {@link DELIVERY_COLUMNS}) as the port's record. */
export function toDeliveryRecord(row: Row): AlertDeliveryRecord {
  const code = row['response_code']
  return {
    id: row['id'] as string,
    projectId: row['project_id'] as string,
    ruleId: textOrNull(row, 'rule_id'),
    ruleName: textOrNull(row, 'rule_name'),
    channelId: textOrNull(row, 'channel_id'),
    channelName: row['channel_name'] as string,
    channelType: row['channel_type'] as AlertChannelType,
    trigger: row['trigger'] as AlertTrigger | 'test',
    subjectId: textOrNull(row, 'subject_id'),
    payload: (row['payload'] ?? {}) as AlertPayload,
    status: row['status'] as AlertDeliveryStatus,
    attempts: Number(row['attempts']),
    nextAttemptAt: row['next_attempt_at'] as Date,
    lastError: textOrNull(row, 'last_error'),
    responseCode: code === null || code === undefined ? null : Number(code),
    createdAt: row['created_at'] as Date,
    deliveredAt: dateOrNull(row, 'delivered_at'),
  }
}

/** Email recipients as stored (`email_to`, comma-separated) as a list; `null` stays `null`. */
export function splitRecipients(value: string | null): readonly string[] | null {
  if (value === null) return null
  return value
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '')
}
