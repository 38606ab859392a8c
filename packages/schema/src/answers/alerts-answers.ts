import * as z from 'zod'
import { component, dateTimeField, pageOf, uuidField } from './common'

// The answers of the alerts configuration API: channels, rules and the delivery log.
// The request bodies and the operations are in alerts-operations.ts; the webhook body that
// receivers get is in alerts-webhook.ts.

/** What a rule fires on. */
export const ALERT_TRIGGERS = [
  'new_issue',
  'regression',
  'spike',
  'monitor_missed',
  'monitor_failed',
  'monitor_recovered',
  'release_crash_free_below',
] as const
/** How a channel is reached. */
export const ALERT_CHANNEL_TYPES = ['webhook', 'slack', 'email'] as const
/** Where a delivery is. */
export const ALERT_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const
/** The levels a rule may filter on. */
export const ALERT_LEVELS = [
  'debug',
  'info',
  'warn',
  'warning',
  'error',
  'fatal',
  'critical',
] as const

/** A project's alert channel, never its secret (`alertChannelJson`). */
export const alertChannelSchema = component(
  'AlertChannel',
  z.strictObject({
    id: uuidField,
    name: z.string(),
    type: z.enum(ALERT_CHANNEL_TYPES),
    url: z.string().nullable().meta({ description: 'Webhook and Slack: the URL posted to.' }),
    to: z.array(z.string()).nullable().meta({ description: 'Email: the recipients.' }),
    created_at: dateTimeField,
  }),
  'Where alert messages go. A webhook secret is shown only in the answer that created it.',
)
/** A channel as the alerts API answers it. */
export type AlertChannel = z.output<typeof alertChannelSchema>

/** A project's alert rule (`alertRuleJson`). */
export const alertRuleSchema = component(
  'AlertRule',
  z.strictObject({
    id: uuidField,
    name: z.string(),
    trigger: z.enum(ALERT_TRIGGERS),
    channel_ids: z.array(uuidField).meta({
      description: 'The channels it notifies, in the order given; a deleted channel drops out.',
    }),
    environment: z.string().nullable(),
    level: z.string().nullable(),
    threshold: z.number().nullable().meta({
      description:
        '`spike`: an event count (integer); `release_crash_free_below`: a crash-free fraction (0 to 1).',
    }),
    window_seconds: z.int().nullable(),
    quiet_seconds: z.int(),
    created_at: dateTimeField,
  }),
  'When a message is sent (see docs/alerts.md, "Rules").',
)
/** A rule as the alerts API answers it. */
export type AlertRule = z.output<typeof alertRuleSchema>

/** One notification to one channel: a row of the delivery log (`alertDeliveryJson`). */
export const alertDeliverySchema = component(
  'AlertDelivery',
  z.strictObject({
    id: uuidField.meta({
      description: 'The delivery id (`X-Tis-Delivery`), stable across retries.',
    }),
    rule_id: uuidField.nullable().meta({ description: 'Null for a test or a deleted rule.' }),
    rule_name: z.string().nullable(),
    channel_id: uuidField.nullable().meta({ description: 'Null once the channel was deleted.' }),
    channel_name: z.string(),
    channel_type: z.enum(ALERT_CHANNEL_TYPES),
    trigger: z.enum([...ALERT_TRIGGERS, 'test']),
    subject_id: uuidField
      .nullable()
      .meta({ description: 'The issue or monitor; null for a test.' }),
    status: z.enum(ALERT_DELIVERY_STATUSES),
    attempts: z.int().min(0),
    next_attempt_at: dateTimeField.meta({ description: 'When a pending delivery is tried next.' }),
    last_error: z.string().nullable(),
    response_code: z.int().nullable().meta({
      description: "The receiver's HTTP status of the last attempt (webhook, Slack).",
    }),
    created_at: dateTimeField,
    delivered_at: dateTimeField.nullable(),
  }),
  'One notification to one channel, newest first in the log.',
)
/** A delivery as the alerts API answers it. */
export type AlertDelivery = z.output<typeof alertDeliverySchema>

/** `GET …/alert_channels`. */
export const alertChannelListSchema = z.strictObject({
  alert_channels: z.array(alertChannelSchema),
})
/** The body of that answer. */
export type AlertChannelList = z.output<typeof alertChannelListSchema>
/** `POST …/alert_channels`: the channel, and a webhook's secret, shown once. */
export const createdAlertChannelSchema = z.strictObject({
  alert_channel: alertChannelSchema,
  secret: z.string().nullable().meta({
    description:
      'Webhook: the HMAC-SHA256 key of `X-Tis-Signature`, 64 hex characters (32 random bytes), shown only here; null for Slack and email.',
  }),
})
/** The body of that answer. */
export type CreatedAlertChannel = z.output<typeof createdAlertChannelSchema>
/** `GET …/alert_rules`. */
export const alertRuleListSchema = z.strictObject({ alert_rules: z.array(alertRuleSchema) })
/** The body of that answer. */
export type AlertRuleList = z.output<typeof alertRuleListSchema>
/** `POST …/alert_rules`. */
export const alertRuleAnswerSchema = z.strictObject({ alert_rule: alertRuleSchema })
/** The body of that answer. */
export type AlertRuleAnswer = z.output<typeof alertRuleAnswerSchema>
/** `GET …/alert_deliveries`: one page, newest first. */
export const alertDeliveryPageSchema = pageOf('alert_deliveries', alertDeliverySchema)
/** The body of that answer. */
export type AlertDeliveryPage = z.output<typeof alertDeliveryPageSchema>
/** `POST …/alert_channels/{channel_id}/test`: the queued test delivery. */
export const alertDeliveryAnswerSchema = z.strictObject({ alert_delivery: alertDeliverySchema })
/** The body of that answer. */
export type AlertDeliveryAnswer = z.output<typeof alertDeliveryAnswerSchema>
