import { PGLITE_SYNC_MODES } from '@tis/storage-postgres'
import * as z from 'zod'

// The server's configuration, read only from the environment. Each variable is described once
// here — name, description, default, rule — and the configuration reference in docs is generated
// from CONFIG_VARIABLES, so the two cannot drift.

/** How one environment variable is documented. */
export interface ConfigVariable {
  /** What it sets, one or two sentences. */
  readonly description: string
  /** The value used when the variable is unset or blank; `undefined` when it has none. */
  readonly default: string | undefined
  /** Its value is a secret: never echoed in errors or logs. */
  readonly secret?: boolean
  /** The rule its value must follow, as zod. Input is the raw string. */
  readonly schema: z.ZodType<unknown, string>
}

const EMAIL = /^[^\s@,]+@[^\s@,]+$/
/** `*`, or an origin as browsers send it in `Origin`: a scheme, a host and an optional port. */
const ORIGIN = /^(\*|[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:,]+(:\d{1,5})?)$/i
// Browsers send http(s) origins lowercased and without the default port.
const normalizeOrigin = (origin: string) => {
  if (!/^https?:/i.test(origin)) return origin.toLowerCase()
  try {
    return new URL(origin).origin
  } catch {
    return origin.toLowerCase()
  }
}
const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const
/** `SERVICE_COOKIE_SECURE`: `auto` follows the public URL's scheme. */
export const COOKIE_SECURE_MODES = ['auto', 'true', 'false'] as const
/** The longest session setting: a year. */
const YEAR_SECONDS = 365 * 24 * 3600
/** Where request counts live: shared in the database, in this process, or not counted at all. */
export const RATE_LIMIT_STORES = ['database', 'memory', 'none'] as const

const integer = (min: number, max?: number) => {
  const rule =
    max === undefined
      ? `must be an integer of at least ${min}`
      : `must be an integer from ${min} to ${max}`
  return z
    .string()
    .trim()
    .regex(/^\d+$/, { error: rule })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { error: rule })
        .max(max ?? Number.MAX_SAFE_INTEGER, { error: rule }),
    )
}

const boolean = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' }))
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

const list = (item: z.ZodType<string, string>, what: string) =>
  z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    )
    .pipe(z.array(item, { error: `must be a comma-separated list of ${what}` }))

const text = z.string().trim().min(1)

/** A ClickHouse database or table name: quoted nowhere, so only plain identifiers. */
const identifier = z
  .string()
  .trim()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, {
    error: 'must be an identifier: a letter or _, then letters, digits or _ (at most 64)',
  })

const url = (protocols: readonly string[], what: string) =>
  z
    .string()
    .trim()
    .refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol)
        } catch {
          return false
        }
      },
      { error: `must be ${what}` },
    )

/** Every variable the server reads, in the order the configuration reference lists them. */
export const CONFIG_VARIABLES = {
  PORT: {
    description: 'TCP port the HTTP server listens on; 0 picks a free port.',
    default: '3000',
    schema: integer(0, 65_535),
  },
  HOST: {
    description: 'Address the HTTP server binds to.',
    default: '0.0.0.0',
    schema: text,
  },
  DATABASE_URL: {
    description:
      'PostgreSQL connection URL (postgres://user:password@host:5432/db). When unset, tis stores its data in an embedded PGlite database in SERVICE_DATA_DIR.',
    default: undefined,
    secret: true,
    schema: url(['postgres:', 'postgresql:'], 'a postgres:// or postgresql:// URL'),
  },
  SERVICE_DATA_DIR: {
    description:
      'Directory of the embedded PGlite database (used when DATABASE_URL is unset), relative to the working directory. `:memory:` keeps the data in memory only.',
    default: '.tis/data',
    schema: text,
  },
  SERVICE_EMBEDDED_SYNC: {
    description:
      'Embedded database only: `commit` flushes each commit to the disk (fsync) before tis answers, so acknowledged events survive an OS crash or power loss; `off` never flushes and only survives a killed server (docs/self-hosting.md, Durability).',
    default: 'commit',
    schema: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(PGLITE_SYNC_MODES, { error: `must be one of ${PGLITE_SYNC_MODES.join(', ')}` })),
  },
  SERVICE_ENV: {
    description: "The service's own environment: the default `environment` of check-ins.",
    default: 'production',
    schema: text,
  },
  SERVICE_ADMIN_EMAILS: {
    description:
      'Comma-separated emails of the application administrators. The first one is the administrator created on first run; when empty, `admin@localhost` is.',
    default: '',
    schema: list(
      z.string().regex(EMAIL, { error: 'must be a comma-separated list of email addresses' }),
      'email addresses',
    ),
  },
  SERVICE_BOOTSTRAP_ADMIN_TOKEN: {
    description:
      'When set, the first administrator signs in with exactly this access token (created at start if needed), instead of a random token printed on first run. Must start with `tis_user_` followed by at least 16 characters.',
    default: undefined,
    secret: true,
    schema: z
      .string()
      .trim()
      .regex(/^tis_user_\S{16,503}$/, {
        error: 'must be `tis_user_` followed by 16 to 503 non-space characters',
      }),
  },
  SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: {
    description:
      'Accepted requests per credential per window, separately for ingest_events, check_ins, deployments and mobile_ingest_tokens.',
    default: '1200',
    schema: integer(1),
  },
  SERVICE_PUBLIC_API_RATE_LIMIT_PERIOD_SECONDS: {
    description: 'Length of the fixed rate-limit window, in seconds.',
    default: '60',
    schema: integer(1),
  },
  SERVICE_PUBLIC_API_AUTH_FAILURE_RATE_LIMIT_REQUESTS: {
    description: 'Authentication failures allowed per client IP per minute before 429.',
    default: '120',
    schema: integer(1),
  },
  SERVICE_PUBLIC_API_RATE_LIMIT_STORE: {
    description:
      'Where request counts live: `database` (shared by every instance on the same database, exact across instances), `memory` (this process only: right for a single instance, e.g. PGlite) or `none` (no caps at all; for benchmarks, never in production).',
    default: 'database',
    schema: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(RATE_LIMIT_STORES, { error: `must be one of ${RATE_LIMIT_STORES.join(', ')}` })),
  },
  SERVICE_MAX_BODY_BYTES: {
    description:
      'Largest request body accepted, in bytes; larger bodies are refused with 413 while they are read.',
    default: '1048576',
    schema: integer(1),
  },
  SERVICE_BATCH_MAX_BODY_BYTES: {
    description:
      'Largest body of `POST /api/v1/ingest_events/batch` as sent (compressed or not), in bytes; larger ones get 413. The default takes every batch the Logister clients send (the Python client splits at 2 MiB compressed).',
    default: '2097152',
    schema: integer(1),
  },
  SERVICE_BATCH_MAX_DECOMPRESSED_BYTES: {
    description:
      'Largest batch body once decompressed, in bytes: a gzip body inflating past it gets 413 without ever taking more memory (the Python client splits at 8 MiB uncompressed).',
    default: '8388608',
    schema: integer(1),
  },
  SERVICE_BATCH_MAX_ENVELOPE_BYTES: {
    description:
      'Largest single envelope (line) of a batch, in bytes; a batch holding a larger one gets 413 naming it.',
    default: '1048576',
    schema: integer(1),
  },
  SERVICE_BATCH_MAX_ENVELOPES: {
    description:
      'Most envelopes (lines) in one batch; a batch with more gets 413. Logister’s clients send at most 100; the default lets bulk senders pay one request per 1,000 records.',
    default: '1000',
    schema: integer(1, 10_000),
  },
  SERVICE_REQUEST_TIMEOUT_SECONDS: {
    description:
      'Longest time a client may take to send a whole request (headers and body), in seconds; slower connections are closed (408). Headers alone must arrive within 10 seconds, or this when smaller.',
    default: '30',
    schema: integer(1, 3600),
  },
  SERVICE_TRUSTED_PROXIES: {
    description:
      'Comma-separated IP addresses of reverse proxies whose `X-Forwarded-For` is trusted, or `*` for any peer. When the connecting peer is trusted, the first `X-Forwarded-For` hop is the client IP; otherwise the socket address is.',
    default: '',
    schema: list(text, 'IP addresses or *'),
  },
  SERVICE_CORS_ORIGINS: {
    description:
      'Comma-separated origins (`scheme://host[:port]`) whose pages may send telemetry to the ingest and check-in endpoints from a browser, or `*` for any origin. Other origins get no CORS headers, so browsers block their requests.',
    default: '*',
    schema: list(
      z
        .string()
        .regex(ORIGIN, {
          error: 'must be `*` or a comma-separated list of origins (scheme://host[:port])',
        })
        .transform(normalizeOrigin),
      'origins (scheme://host[:port]) or *',
    ),
  },
  SERVICE_PUBLIC_URL: {
    description:
      "The URL people and clients reach tis at, as they see it (behind a reverse proxy: the proxy's), e.g. `https://tis.example.com`. Listed as the server of the OpenAPI document; when it is https, the dashboard's cookies are `Secure` (see SERVICE_COOKIE_SECURE).",
    default: undefined,
    schema: url(['http:', 'https:'], 'an http:// or https:// URL').transform((v) =>
      v.replace(/\/+$/, ''),
    ),
  },
  SERVICE_COOKIE_SECURE: {
    description:
      "Marks the dashboard's cookies `Secure`, so browsers send them over HTTPS only: `auto` when SERVICE_PUBLIC_URL is https, `true` always (set it when a proxy terminates TLS and forwards plain HTTP, unless SERVICE_PUBLIC_URL says https), `false` never (local plain-HTTP use only).",
    default: 'auto',
    schema: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(
        z.enum(COOKIE_SECURE_MODES, {
          error: `must be one of ${COOKIE_SECURE_MODES.join(', ')}`,
        }),
      ),
  },
  SERVICE_SESSION_IDLE_SECONDS: {
    description:
      'Seconds a dashboard session survives without a request (idle expiry); the default is 7 days, as in Grafana. Lowering it applies to existing sessions at once.',
    default: '604800',
    schema: integer(60, YEAR_SECONDS),
  },
  SERVICE_SESSION_MAX_AGE_SECONDS: {
    description:
      'Seconds a dashboard session lasts however busy it is (absolute expiry), and the lifetime of its cookie; the default is 30 days, as in Grafana. Lowering it applies to existing sessions at once.',
    default: '2592000',
    schema: integer(60, YEAR_SECONDS),
  },
  SERVICE_LOG_LEVEL: {
    description: 'Least severe log level written to stdout: debug, info, warn, error or silent.',
    default: 'info',
    schema: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })),
  },
  SERVICE_ANALYTICS_ENABLED: {
    description:
      'Enables the optional analytics store (ClickHouse): events and spans accepted from then on are exported in the background, following the ingest log behind the projection. No backfill of older data. Turning it off for good: docs/analytics.md.',
    default: 'false',
    schema: boolean,
  },
  SERVICE_ANALYTICS_URL: {
    description:
      'HTTP(S) URL of the analytics store, e.g. http://localhost:8123. Required when SERVICE_ANALYTICS_ENABLED is true.',
    default: undefined,
    secret: true,
    schema: url(['http:', 'https:'], 'an http:// or https:// URL'),
  },
  SERVICE_ANALYTICS_DATABASE: {
    description: 'Database of the analytics store (created by the migration when missing).',
    default: 'tis',
    schema: identifier,
  },
  SERVICE_ANALYTICS_EVENTS_TABLE: {
    description: 'Raw events table of the analytics store.',
    default: 'events_raw',
    schema: identifier,
  },
  SERVICE_ANALYTICS_SPANS_TABLE: {
    description: 'Raw spans table of the analytics store.',
    default: 'spans_raw',
    schema: identifier,
  },
  SERVICE_ANALYTICS_USERNAME: {
    description: 'User name for the analytics store.',
    default: 'default',
    schema: text,
  },
  SERVICE_ANALYTICS_PASSWORD: {
    description: 'Password for the analytics store.',
    default: '',
    secret: true,
    schema: z.string(),
  },
  SERVICE_ANALYTICS_FAILURE_THROTTLE_SECONDS: {
    description:
      'At most one log line per failure kind per this many seconds about failing analytics exports (the failure counter counts them all).',
    default: '60',
    schema: integer(1),
  },
  SERVICE_ANALYTICS_DRAIN: {
    description:
      'Export to the analytics store from the server process. Set false when separate `tis worker` processes do it (several may run: one exports at a time, the others take over).',
    default: 'true',
    schema: boolean,
  },
  SERVICE_PROJECTION: {
    description:
      'Where accepted records are projected into issues, events, spans, monitors and the analytics feed: `server` projects in this process (the default, embedded database included); `worker` leaves it to `tis worker` processes (PostgreSQL only; several may run, one projects at a time). docs/scaling.md.',
    default: 'server',
    schema: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(['server', 'worker'], { error: 'must be one of server, worker' })),
  },
  SERVICE_PROJECTION_BATCH_SIZE: {
    description:
      'Most accepted records projected in one transaction. Larger is cheaper per record; on the embedded database requests wait behind a running round, so it uses at most 250 there.',
    default: '1000',
    schema: integer(1, 100_000),
  },
  SERVICE_READ_BARRIER_MS: {
    description:
      'Longest a read (read API, dashboard, CLI) waits for the projection to pass everything acknowledged before it began, in ms; past it the read answers with what is projected and the `X-Tis-Projection-Lag` header. 0 never waits.',
    default: '2000',
    schema: integer(0, 60_000),
  },
  SERVICE_PROJECTION_MAX_LAG_SECONDS: {
    description:
      'Projection lag (age of the oldest acknowledged record not yet projected) above which `GET /health/ready` says `lagging` and the dashboard warns.',
    default: '60',
    schema: integer(1),
  },
  SERVICE_SECRET_KEY: {
    description:
      "Secret (at least 32 characters, e.g. `openssl rand -base64 48`) that encrypts secrets stored in the database — projects' GitHub tokens — with AES-256-GCM. Required to set a project's `github_token`; changing it makes stored tokens unreadable (set them again).",
    default: undefined,
    secret: true,
    schema: z
      .string()
      .trim()
      .min(32, { error: 'must be at least 32 characters (e.g. `openssl rand -base64 48`)' }),
  },
  SERVICE_GITHUB_TOKEN: {
    description:
      'GitHub token used for source excerpts of projects without a token of their own (a fine-grained token with Contents: read on the repositories). Only ever sent to SERVICE_GITHUB_API_URL.',
    default: undefined,
    secret: true,
    schema: z
      .string()
      .trim()
      .regex(/^\S{1,1024}$/, { error: 'must be a token without spaces' }),
  },
  SERVICE_GITHUB_API_URL: {
    description:
      'GitHub API base URL for source excerpts; for GitHub Enterprise Server `https://HOST/api/v3`. Projects may set their own with their own token.',
    default: 'https://api.github.com',
    schema: url(['http:', 'https:'], 'an http:// or https:// URL').transform((v) =>
      v.replace(/\/+$/, ''),
    ),
  },
} as const satisfies Record<string, ConfigVariable>

/** The name of one configuration variable. */
export type ConfigVariableName = keyof typeof CONFIG_VARIABLES

type Variables = typeof CONFIG_VARIABLES
/** The parsed value of every variable: `undefined` for unset variables without a default. */
export type ParsedEnvironment = {
  -readonly [K in ConfigVariableName]: Variables[K]['default'] extends string
    ? z.output<Variables[K]['schema']>
    : z.output<Variables[K]['schema']> | undefined
}

// Blank values count as unset, as container runtimes often pass `FOO=` for "not configured".
const unsetWhenBlank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v)

function variableSchema({ default: fallback, schema, description }: ConfigVariable) {
  const value =
    fallback === undefined ? schema.optional() : z.preprocess((v) => v ?? fallback, schema)
  return z.preprocess(unsetWhenBlank, value).meta({ description, default: fallback })
}

/**
 * The zod schema of the whole environment: an object keyed by variable name whose output has
 * every default applied. Unknown variables are ignored.
 */
export const configEnvSchema = z
  .object(
    Object.fromEntries(
      Object.entries(CONFIG_VARIABLES).map(([name, variable]) => [name, variableSchema(variable)]),
    ) as unknown as Record<ConfigVariableName, z.ZodType>,
  )
  .superRefine((env, ctx) => {
    if (env['SERVICE_ANALYTICS_ENABLED'] === true && env['SERVICE_ANALYTICS_URL'] === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['SERVICE_ANALYTICS_URL'],
        message: 'is required when SERVICE_ANALYTICS_ENABLED is true',
      })
    }
  })
