import type { EventType, IntegrationKind, MobilePlatform } from '@tis/schema'
import type { ProjectStatus } from './project-status'

/**
 * What a credential is: a project API key, a short-lived mobile ingest token (minted by the
 * app's backend), or a project's Sentry DSN key (what Sentry's SDKs send).
 */
export type CredentialKind = 'api_key' | 'mobile' | 'sentry'

/** What a mobile ingest token is bound to (section 2.5): written into every record it sends. */
export interface MobileBinding {
  readonly platform: MobilePlatform
  readonly service: string
  readonly environment: string
  readonly release: string | null
  readonly sessionId: string | null
  readonly allowedEventTypes: readonly EventType[]
}

/** Project-level rate-limit overrides (section 5.8); `null` fields use the configured default. */
export interface RateLimitOverride {
  readonly requests: number | null
  readonly periodSeconds: number | null
  readonly authFailureRequests: number | null
}

/**
 * A project's data-scrubbing settings (`…/data_scrubbing`, docs/data-scrubbing.md): what is
 * replaced by `"[Filtered]"` before a record is acknowledged.
 */
export interface DataScrubbingSettings {
  /** Off stores values as sent. */
  readonly enabled: boolean
  /** Sensitive key names besides the defaults, matched on word boundaries. */
  readonly extraFields: readonly string[]
  /** Key names never filtered (exact, case-insensitive). */
  readonly safeFields: readonly string[]
  /** Client IP addresses are filtered too. */
  readonly scrubIpAddresses: boolean
}

/** The settings of a project that never set its own: on, nothing extra, IPs kept. */
export const DEFAULT_DATA_SCRUBBING: DataScrubbingSettings = Object.freeze({
  enabled: true,
  extraFields: Object.freeze([]) as readonly string[],
  safeFields: Object.freeze([]) as readonly string[],
  scrubIpAddresses: false,
})

/** A project API key or mobile token as the credential check needs it. */
export interface CredentialRecord {
  readonly id: string
  readonly kind: CredentialKind
  readonly projectId: string
  readonly projectStatus: ProjectStatus
  readonly integrationKind: IntegrationKind
  /**
   * Set once revoked (by a user, or by archiving the project). For a mobile token, also set
   * (to the parent's time) when the API key that minted it is revoked.
   */
  readonly revokedAt: Date | null
  /** Set for credentials that expire (mobile tokens). */
  readonly expiresAt: Date | null
  /** The binding of a mobile token; `null` for API keys. */
  readonly binding: MobileBinding | null
  /** The project's rate-limit overrides, `null` when it has none. */
  readonly rateLimit: RateLimitOverride | null
  /** The project's number (its Sentry DSN's project part); absent from older stores. */
  readonly projectNumber?: number | null
  /**
   * The project's data-scrubbing settings; `null` (or absent) for a project that never set them:
   * {@link DEFAULT_DATA_SCRUBBING}.
   */
  readonly dataScrubbing?: DataScrubbingSettings | null
}

/** Looks up credentials by the SHA-256 hex digest of their token. */
export interface CredentialStore {
  /** The API key or mobile token with this digest, whatever its state; `null` if none. */
  findCredential(digest: string): Promise<CredentialRecord | null>
}
