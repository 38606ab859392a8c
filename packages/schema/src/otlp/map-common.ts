import type { OtlpAttributes, OtlpScope, OtlpValue } from './types'

const NANOS_PER_MS = 1_000_000n
// The last instant an ISO string can show (year 9999); later clocks are treated as unset.
const LAST_MS = 253_402_300_799_999n

/** Unix nanoseconds (decimal string) as an ISO 8601 date-time; `undefined` when 0 or unusable. */
export function nanosToIso(nanos: string): string | undefined {
  if (!/^\d{1,20}$/.test(nanos)) return undefined
  const ms = BigInt(nanos) / NANOS_PER_MS
  if (ms <= 0n || ms > LAST_MS) return undefined
  return new Date(Number(ms)).toISOString()
}

/** The milliseconds from `start` to `end` (nanosecond strings), never negative. */
export function durationBetween(start: string, end: string): number {
  if (!/^\d{1,20}$/.test(start) || !/^\d{1,20}$/.test(end)) return 0
  const nanos = BigInt(end) - BigInt(start)
  return nanos > 0n ? Number(nanos) / 1e6 : 0
}

/** An attribute as a string, when it is one (or a number). */
export function stringAttribute(attributes: OtlpAttributes, key: string): string | undefined {
  const value = attributes[key]
  if (typeof value === 'string' && value !== '') return value
  if (typeof value === 'number') return String(value)
  return undefined
}

/** A value as message text: strings as they are, anything else as JSON. */
export function valueText(value: OtlpValue | undefined): string | undefined {
  if (value === undefined || value === null) return undefined
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/**
 * The event fields a resource supplies: `service.version` → `release`,
 * `deployment.environment.name` (or the older `deployment.environment`) → `environment`.
 */
export function resourceFields(resource: OtlpAttributes): Record<string, string> {
  const out: Record<string, string> = {}
  const release = stringAttribute(resource, 'service.version')
  const environment =
    stringAttribute(resource, 'deployment.environment.name') ??
    stringAttribute(resource, 'deployment.environment')
  if (release !== undefined) out['release'] = release
  if (environment !== undefined) out['environment'] = environment
  return out
}

/** The context every mapped event shares: service, resource and scope. */
export function resourceContext(
  resource: OtlpAttributes,
  scope: OtlpScope,
): Record<string, unknown> {
  const out: Record<string, unknown> = { resource, scope }
  const service = stringAttribute(resource, 'service.name')
  if (service !== undefined) out['service'] = service
  return out
}
