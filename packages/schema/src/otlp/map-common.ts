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

/**
 * A stable `event_id` for the record a span gives (`slot` 0 its span, 1 its transaction, 2 + i
 * its i-th exception): the trace id with the span id folded into its second half and the slot
 * into its first, as a UUID (version 8). An exporter that sends the same span again (a retry
 * after a lost answer) then stores nothing twice. `undefined` without both ids.
 */
export function spanEventId(traceId: string, spanId: string, slot: number): string | undefined {
  if (!/^[0-9a-f]{32}$/.test(traceId) || !/^[0-9a-f]{16}$/.test(spanId)) return undefined
  const hex = (n: bigint, width: number) => n.toString(16).padStart(width, '0')
  const high = BigInt(`0x${traceId.slice(0, 16)}`) ^ (BigInt(slot) << 48n)
  const low = BigInt(`0x${traceId.slice(16)}`) ^ BigInt(`0x${spanId}`)
  // Version 8 (custom) in bits 48–51 of the high half, variant 10 in the top bits of the low.
  const versioned = (high & ~(0xfn << 12n)) | (0x8n << 12n)
  const varianted = (low & ~(0x3n << 62n)) | (0x2n << 62n)
  const h = hex(versioned, 16)
  const l = hex(varianted, 16)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12)}-${l.slice(0, 4)}-${l.slice(4)}`
}
