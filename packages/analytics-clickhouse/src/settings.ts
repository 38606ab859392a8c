import { ClickHouseLogLevel } from '@clickhouse/client'
import * as z from 'zod'
import { IDENTIFIER } from './sql'

// Blank values count as unset: container runtimes often pass `FOO=` for "not configured".
const unsetWhenBlank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v)
const withDefault = <T extends z.ZodType>(schema: T, fallback: string) =>
  z.preprocess((v) => unsetWhenBlank(v) ?? fallback, schema)

const boolean = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }))
  .transform((v) => v === 'true' || v === '1')

const identifier = (variable: string) =>
  z
    .string()
    .trim()
    .regex(IDENTIFIER, {
      error: `${variable} must be an identifier: a letter or underscore, then up to 63 letters, digits or underscores`,
    })

const url = z
  .string()
  .trim()
  .refine(
    (v) => {
      try {
        return ['http:', 'https:'].includes(new URL(v).protocol)
      } catch {
        return false
      }
    },
    { error: 'SERVICE_ANALYTICS_URL must be an http:// or https:// URL' },
  )

const throttleSeconds = z
  .string()
  .trim()
  .regex(/^\d+$/, {
    error: 'SERVICE_ANALYTICS_FAILURE_THROTTLE_SECONDS must be an integer of at least 1',
  })
  .transform(Number)
  .pipe(
    z.number().int().min(1, {
      error: 'SERVICE_ANALYTICS_FAILURE_THROTTLE_SECONDS must be an integer of at least 1',
    }),
  )

/**
 * The analytics store's environment variables (spec section 8) as a zod schema whose output
 * has every default applied. Unknown variables are ignored; blank values count as unset. The
 * server's configuration can reuse it (or its `shape`).
 */
export const analyticsEnvSchema = z.object({
  SERVICE_ANALYTICS_ENABLED: withDefault(boolean, 'false'),
  SERVICE_ANALYTICS_URL: withDefault(url, 'http://localhost:8123'),
  SERVICE_ANALYTICS_DATABASE: withDefault(identifier('SERVICE_ANALYTICS_DATABASE'), 'tis'),
  SERVICE_ANALYTICS_EVENTS_TABLE: withDefault(
    identifier('SERVICE_ANALYTICS_EVENTS_TABLE'),
    'events_raw',
  ),
  SERVICE_ANALYTICS_SPANS_TABLE: withDefault(
    identifier('SERVICE_ANALYTICS_SPANS_TABLE'),
    'spans_raw',
  ),
  SERVICE_ANALYTICS_SESSIONS_TABLE: withDefault(
    identifier('SERVICE_ANALYTICS_SESSIONS_TABLE'),
    'session_minutes',
  ),
  SERVICE_ANALYTICS_USERNAME: withDefault(z.string().trim(), 'default'),
  SERVICE_ANALYTICS_PASSWORD: z
    .string()
    .optional()
    .transform((v) => v ?? ''),
  SERVICE_ANALYTICS_FAILURE_THROTTLE_SECONDS: withDefault(throttleSeconds, '60'),
})

/** The analytics store settings, parsed. */
export interface AnalyticsSettings {
  /** Whether events, spans and session minutes are exported at all. @default false */
  readonly enabled: boolean
  /** HTTP(S) URL of the ClickHouse server. @default 'http://localhost:8123' */
  readonly url: string
  /** @default 'tis' */
  readonly database: string
  /** Raw events table. @default 'events_raw' */
  readonly eventsTable: string
  /** Raw spans table. @default 'spans_raw' */
  readonly spansTable: string
  /** Release health per minute. @default 'session_minutes' */
  readonly sessionsTable: string
  /** @default 'default' */
  readonly username: string
  /** @default '' */
  readonly password: string
  /** At most one failure report per failure kind per this many seconds. @default 60 */
  readonly failureThrottleSeconds: number
}

/** The outcome of {@link parseAnalyticsSettings}: settings, or one message per invalid variable. */
export type AnalyticsSettingsResult =
  | { readonly ok: true; readonly settings: AnalyticsSettings }
  | { readonly ok: false; readonly errors: readonly string[] }

/** Reads the `SERVICE_ANALYTICS_*` variables from `env`; never throws. */
export function parseAnalyticsSettings(
  env: Readonly<Record<string, string | undefined>>,
): AnalyticsSettingsResult {
  const parsed = analyticsEnvSchema.safeParse(env)
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((issue) => {
        const variable = String(issue.path[0] ?? '')
        return issue.message.startsWith(variable) ? issue.message : `${variable} ${issue.message}`
      }),
    }
  }
  const v = parsed.data
  return {
    ok: true,
    settings: {
      enabled: v.SERVICE_ANALYTICS_ENABLED,
      url: v.SERVICE_ANALYTICS_URL,
      database: v.SERVICE_ANALYTICS_DATABASE,
      eventsTable: v.SERVICE_ANALYTICS_EVENTS_TABLE,
      spansTable: v.SERVICE_ANALYTICS_SPANS_TABLE,
      sessionsTable: v.SERVICE_ANALYTICS_SESSIONS_TABLE,
      username: v.SERVICE_ANALYTICS_USERNAME,
      password: v.SERVICE_ANALYTICS_PASSWORD,
      failureThrottleSeconds: v.SERVICE_ANALYTICS_FAILURE_THROTTLE_SECONDS,
    },
  }
}

/** Options for `createClient` of `@clickhouse/client`, as {@link clickHouseClientOptions} builds them. */
export interface AnalyticsClientOptions {
  readonly url: string
  readonly username: string
  readonly password: string
  readonly request_timeout: number
  readonly log: { readonly level: ClickHouseLogLevel }
}

/**
 * Options for `createClient` of `@clickhouse/client` from the settings. The request timeout
 * (default 30 s) must stay below the drainer's lease so a slow insert never outlives its lease.
 * The driver's own error logging is off: failures reach the drainer's throttled reports instead,
 * so an outage does not flood the log.
 */
export function clickHouseClientOptions(
  settings: AnalyticsSettings,
  requestTimeoutMs = 30_000,
): AnalyticsClientOptions {
  return {
    url: settings.url,
    username: settings.username,
    password: settings.password,
    request_timeout: requestTimeoutMs,
    log: { level: ClickHouseLogLevel.OFF },
  }
}
