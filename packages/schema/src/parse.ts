import { type NormalizedCheckIn, type ParseCheckInOptions, parseCheckInEnvelope } from './check-in'
import { type NormalizedDeployment, parseDeploymentEnvelope } from './deployment'
import { type NormalizedEvent, type ParseEventOptions, parseEventEnvelope } from './event'
import { type NormalizedMobileTokenRequest, parseMobileTokenEnvelope } from './mobile-token'
import type { ParseResult } from './result'

/** The normalised record of each operation, by its envelope key. */
export interface NormalizedRecords {
  event: NormalizedEvent
  check_in: NormalizedCheckIn
  deployment: NormalizedDeployment
  mobile_ingest_token: NormalizedMobileTokenRequest
}

/** Options shared by every parser; each uses the ones that concern it. */
export type ParseOptions = ParseEventOptions & ParseCheckInOptions

/**
 * Parses a request body for any of the four operations, by envelope key: the generic form of
 * `parseEventEnvelope`, `parseCheckInEnvelope`, `parseDeploymentEnvelope` and
 * `parseMobileTokenEnvelope`.
 */
export function parseEnvelope<K extends keyof NormalizedRecords>(
  operation: K,
  body: unknown,
  options: ParseOptions = {},
): ParseResult<NormalizedRecords[K]> {
  switch (operation) {
    case 'event':
      return parseEventEnvelope(body, options) as ParseResult<NormalizedRecords[K]>
    case 'check_in':
      return parseCheckInEnvelope(body, options) as ParseResult<NormalizedRecords[K]>
    case 'deployment':
      return parseDeploymentEnvelope(body) as ParseResult<NormalizedRecords[K]>
    case 'mobile_ingest_token':
      return parseMobileTokenEnvelope(body) as ParseResult<NormalizedRecords[K]>
    default: {
      const never: never = operation
      throw new TypeError(`unknown operation ${String(never)}`)
    }
  }
}
