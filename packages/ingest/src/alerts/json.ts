import type { AlertChannel, AlertDelivery, AlertRule } from '@tis/schema'
import type { AlertChannelRecord, AlertDeliveryRecord, AlertRuleRecord } from '../ports'

/** JSON of an alert channel (never its secret). */
export function alertChannelJson(c: AlertChannelRecord): AlertChannel {
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    url: c.url,
    to: c.to ? [...c.to] : null,
    created_at: c.createdAt.toISOString(),
  }
}

/** JSON of an alert rule. */
export function alertRuleJson(r: AlertRuleRecord): AlertRule {
  return {
    id: r.id,
    name: r.name,
    trigger: r.trigger,
    channel_ids: [...r.channelIds],
    environment: r.environment,
    level: r.level,
    threshold: r.threshold,
    window_seconds: r.windowSeconds,
    quiet_seconds: r.quietSeconds,
    created_at: r.createdAt.toISOString(),
  }
}

/** JSON of a row of the delivery log (not its payload: the message's facts). */
export function alertDeliveryJson(d: AlertDeliveryRecord): AlertDelivery {
  return {
    id: d.id,
    rule_id: d.ruleId,
    rule_name: d.ruleName,
    channel_id: d.channelId,
    channel_name: d.channelName,
    channel_type: d.channelType,
    trigger: d.trigger,
    subject_id: d.subjectId,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt.toISOString(),
    last_error: d.lastError,
    response_code: d.responseCode,
    created_at: d.createdAt.toISOString(),
    delivered_at: d.deliveredAt?.toISOString() ?? null,
  }
}
