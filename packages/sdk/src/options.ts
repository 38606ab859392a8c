import type { TokenProvider } from './credentials'
import type { DebugLogger } from './logger'
import type { NormalizeLimits } from './serialize'
import type { TransportOptions } from './transport'
import type { Transport } from './transport-types'

/** Severity of a `log` or `error` event. */
export type Level = 'debug' | 'info' | 'warn' | 'error' | 'fatal'

/** A plain record as it is sent (snake_case fields of section 2.1). */
export type Payload = Record<string, unknown>

/** Options shared by every capture: correlation ids (section 2.2), tags and context. */
export interface CaptureOptions {
  /** Correlation id shared by logs, errors and spans of one trace. */
  readonly traceId?: string
  readonly requestId?: string
  readonly sessionId?: string
  readonly userId?: string | number
  /** Merged over the client's `tags`; values are sent as strings. */
  readonly tags?: Record<string, unknown>
  /** Merged over the client's `context`. */
  readonly context?: Record<string, unknown>
  /** When it happened. @default now */
  readonly timestamp?: Date | string | number
  /** Overrides the client's `environment` for this record. */
  readonly environment?: string
  /** Overrides the client's `release` for this record. */
  readonly release?: string
}

/** Defaults a {@link ScopeProvider} supplies to every event capture made in its scope. */
export interface ScopeOptions extends CaptureOptions {
  /**
   * The parent of spans captured in the scope without their own `parentSpanId`, unless the
   * capture puts the span in another trace (a `traceId` other than the scope's).
   */
  readonly parentSpanId?: string
}

/**
 * Supplies the ambient options of the current unit of work (for example the request being
 * handled); called once per capture. Its result is merged under the capture's explicit options,
 * field by field: an explicit field wins.
 */
export type ScopeProvider = () => ScopeOptions | undefined

/** Options of `captureException`. */
export interface ExceptionOptions extends CaptureOptions {
  /** @default 'error' */
  readonly level?: Level
  /** Stable grouping key: errors with the same fingerprint form one issue. */
  readonly fingerprint?: string
}

/** Options of `captureMessage`. */
export interface MessageOptions extends CaptureOptions {
  /** @default 'info' */
  readonly level?: Level
  readonly fingerprint?: string
}

/** Options of `captureMetric`. */
export interface MetricOptions extends CaptureOptions {
  /** e.g. `ms`, `bytes`, `count`. */
  readonly unit?: string
}

/** Options of `captureTransaction`. */
export interface TransactionOptions extends CaptureOptions {
  /** e.g. an HTTP status code. */
  readonly status?: string | number
}

/** Span kinds of section 2.1. */
export type SpanKind =
  | 'app'
  | 'browser'
  | 'cache'
  | 'db'
  | 'http'
  | 'internal'
  | 'queue'
  | 'render'
  | 'resource'
  | 'server'

/** Options of `captureSpan`. */
export interface SpanOptions extends CaptureOptions {
  /** 16 hex characters. @default a fresh random id */
  readonly spanId?: string
  /** The parent span's id (children only). */
  readonly parentSpanId?: string
  /** @default 'internal' */
  readonly kind?: SpanKind
  /** Start time. @default now minus the duration */
  readonly startedAt?: Date | string | number
  readonly status?: string | number
}

/** Outcome of a monitored run. */
export type CheckInStatus = 'ok' | 'error'

/** Options of `checkIn` and `withMonitor`. */
export interface CheckInOptions extends CaptureOptions {
  /** How often a report is expected. @default the server's 300 */
  readonly expectedIntervalSeconds?: number
  readonly durationMs?: number
}

/** A deployment record for `recordDeployment` (section 2.4), in camelCase. */
export interface Deployment {
  readonly release: string
  readonly repository: string
  readonly commitSha: string
  /** @default the client's environment, else the server's `production` */
  readonly environment?: string
  readonly branch?: string
  readonly deployedAt?: Date | string
  readonly pullRequestNumber?: string | number
  readonly pullRequestUrl?: string
  readonly releaseUrl?: string
  readonly compareUrl?: string
  readonly workflowRunUrl?: string
  readonly deploymentUrl?: string
  readonly releaseTag?: string
  readonly github?: Record<string, unknown>
}

/** How a release-health session ends: healthy, by a crash, or without a known reason. */
export type SessionEndStatus = 'exited' | 'crashed' | 'abnormal'

/** Options of `startSession`. */
export interface SessionOptions {
  /** The user of the session, sent as `did`. */
  readonly userId?: string | number
}

/**
 * The sessions of one minute (request mode), for `captureSessions`: how many ended healthy
 * (`exited`), with handled errors (`errored`), by an unhandled error (`crashed`) or unknown
 * (`abnormal`). A missing count is 0.
 */
export interface SessionAggregate {
  /** The minute, as ISO 8601 with seconds and milliseconds zero. */
  readonly started: string
  /** The user of these sessions. */
  readonly did?: string | undefined
  readonly exited?: number
  readonly errored?: number
  readonly abnormal?: number
  readonly crashed?: number
}

/** A plain-object integration (for example `consoleIntegration()`). */
export interface Integration<C = unknown> {
  readonly name: string
  /** Installs the integration; returns its uninstall function. */
  setup(client: C): (() => void) | undefined
}

/** Options of `createClient`. */
export interface ClientOptions {
  /** The server's base URL, e.g. `https://tis.example.com`. */
  readonly baseUrl: string
  /** A project API key. Either this or `tokenProvider` is required. */
  readonly apiKey?: string
  /** Supplies mobile ingest tokens; kept in memory, refreshed before expiry and once on a 401. */
  readonly tokenProvider?: TokenProvider
  readonly environment?: string
  readonly release?: string
  /** `false` turns every capture into a no-op that still returns an id. @default true */
  readonly enabled?: boolean
  /** Share of events (`ingest_events`) kept, 0 to 1. Check-ins and deployments are never sampled. @default 1 */
  readonly sampleRate?: number
  /** Edits an event before it is sent, or drops it by returning `null`. */
  readonly beforeSend?: (event: Payload) => Payload | null | undefined
  /** `true` logs diagnostics through `console.warn`; a function receives them instead. @default false */
  readonly debug?: boolean | DebugLogger
  /** Default `context` of every event. */
  readonly context?: Record<string, unknown>
  /** Default `context.tags` of every event. */
  readonly tags?: Record<string, unknown>
  /** Caps for serialising user data. */
  readonly normalize?: NormalizeLimits
  /** Queue and retry policy of the default fetch transport. */
  readonly transportOptions?: TransportOptions
  /** A transport to use instead of the fetch transport. */
  readonly transport?: Transport
  /** The fetch implementation of the default transport. @default globalThis.fetch */
  readonly fetch?: typeof fetch
  /** Flush on Node's `beforeExit` and the browser's `pagehide`. @default true */
  readonly autoFlush?: boolean
  /**
   * Release-health sessions (`POST /api/v1/sessions`), sent only when `release` is set. Outside
   * a browser, the client keeps one process session from its creation to `close()` or the
   * process's `beforeExit`; `false` sends no session at all, integrations' included.
   * @default true
   */
  readonly sessions?: boolean
  /** Integrations set up by the client and removed by `close()`. */
  readonly integrations?: readonly Integration<never>[]
}
