// The data scrubber's settings, its marker and its report.

/** A project's data-scrubbing settings. */
export interface ScrubSettings {
  /** Off: every record is stored as sent and the report is empty. */
  readonly enabled: boolean
  /** More sensitive key names, matched with the same word rules as the built-in ones. */
  readonly extraFields: readonly string[]
  /** Exempt key names: exact key, case-insensitive; wins over every key and value rule. */
  readonly safeFields: readonly string[]
  /** Also filter IP addresses (and drop a `user_id` that is one). */
  readonly scrubIpAddresses: boolean
}

/** Scrubbing on with the built-in rules only, IP addresses kept. */
export const DEFAULT_SCRUB_SETTINGS: ScrubSettings = Object.freeze({
  enabled: true,
  extraFields: Object.freeze([]),
  safeFields: Object.freeze([]),
  scrubIpAddresses: false,
})

/** What a filtered value (or the filtered part of a string) becomes. */
export const FILTERED = '[Filtered]'

/** Why a value was filtered. */
export type ScrubRule =
  | 'sensitive_key'
  | 'credit_card'
  | 'private_key'
  | 'bearer_token'
  | 'url_password'
  | 'ip_address'

/** What one scrub filtered: the total and the count per rule (rules that never fired are absent). */
export interface ScrubReport {
  readonly filtered: number
  readonly rules: Partial<Record<ScrubRule, number>>
}
