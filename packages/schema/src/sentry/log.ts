import type { JsonObject } from '../keys'
import { arr, defined, isoOf, obj, str } from './common'

// Sentry's `log` item (https://develop.sentry.dev/sdk/telemetry/logs/): a container of log
// records `{ items: [...] }`, each as a native log event with its trace id kept for correlation.

/** Sentry's log levels as tis's. */
const LEVELS: Record<string, string> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  warn: 'warn',
  warning: 'warn',
  error: 'error',
  fatal: 'fatal',
}

/** A log attribute (`{ value, type }`, or a bare value) as a plain value. */
function attributeValue(v: unknown): unknown {
  const o = obj(v)
  return o && 'value' in o ? o['value'] : v
}

/** One log record as a native log envelope. */
function logEnvelope(record: JsonObject): { event: JsonObject } {
  const attributes = Object.fromEntries(
    Object.entries(obj(record['attributes']) ?? {}).map(([k, v]) => [k, attributeValue(v)]),
  )
  const text = (key: string) =>
    typeof attributes[key] === 'string' ? (attributes[key] as string) : undefined
  return {
    event: defined({
      event_type: 'log',
      message: str(record['body']) ?? '<empty log>',
      level: LEVELS[str(record['level'])?.toLowerCase() ?? ''] ?? 'info',
      occurred_at: isoOf(record['timestamp']),
      trace_id: str(record['trace_id']),
      environment: text('sentry.environment'),
      release: text('sentry.release'),
      context: defined({
        attributes: Object.keys(attributes).length > 0 ? attributes : undefined,
        severity_number: record['severity_number'],
        protocol: 'sentry',
      }),
    }),
  }
}

/** Sentry's `log` item payload (`{ items }`) as native log envelopes, at most 1,000. */
export function sentryLogEnvelopes(container: JsonObject): Array<{ event: JsonObject }> {
  return arr(container['items'])
    .slice(0, 1_000)
    .map(obj)
    .filter((r): r is JsonObject => r !== undefined)
    .map(logEnvelope)
}
