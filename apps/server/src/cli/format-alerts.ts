import type { AlertChannel, AlertDelivery, AlertRule } from '@tis/schema'
import { table } from './format'

// Human-readable output of `tis alerts …`. `--json` prints the API's JSON instead.

/** A project's channels: id, name, type and where it goes (never a secret). */
export function alertChannelTable(channels: readonly AlertChannel[]): string {
  return table(
    ['ID', 'NAME', 'TYPE', 'TARGET'],
    channels.map((c) => [c.id, c.name, c.type, c.url ?? c.to?.join(', ') ?? '']),
  )
}

/** A project's rules: trigger, filters, spike settings, quiet period and channels. */
export function alertRuleTable(rules: readonly AlertRule[]): string {
  return table(
    ['ID', 'NAME', 'TRIGGER', 'FILTERS', 'SPIKE', 'QUIET', 'CHANNELS'],
    rules.map((r) => [
      r.id,
      r.name,
      r.trigger,
      [r.environment && `env=${r.environment}`, r.level && `level=${r.level}`]
        .filter(Boolean)
        .join(' ') || '-',
      r.threshold === null ? '-' : `>${r.threshold}/${r.window_seconds}s`,
      `${r.quiet_seconds}s`,
      r.channel_ids.join(', '),
    ]),
  )
}

/** The delivery log: when, what, where, how it went. */
export function alertDeliveryTable(deliveries: readonly AlertDelivery[]): string {
  return table(
    ['CREATED', 'TRIGGER', 'RULE', 'CHANNEL', 'STATUS', 'ATTEMPTS', 'CODE', 'LAST ERROR'],
    deliveries.map((d) => [
      d.created_at,
      d.trigger,
      d.rule_name ?? '-',
      `${d.channel_name} (${d.channel_type})`,
      d.status,
      String(d.attempts),
      d.response_code === null ? '-' : String(d.response_code),
      d.last_error ?? '',
    ]),
  )
}
