import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, secureCookies } from './config'
import { configReferenceMarkdown } from './config-reference'
import { CONFIG_VARIABLES } from './config-schema'

const load = (env: Record<string, string>) => loadConfig(env, '/srv/tis')

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    load(env)
  } catch (error) {
    if (ConfigError.is(error)) return error.problems
    throw error
  }
  throw new Error('expected a ConfigError')
}

describe('loadConfig', () => {
  it('applies every default to an empty environment', () => {
    expect(load({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      database: {
        kind: 'pglite',
        dataDir: '/srv/tis/.tis/data',
        sync: 'commit',
        sharedBuffers: '16MB',
        textSearchIndex: true,
      },
      serviceEnvironment: 'production',
      adminEmails: [],
      bootstrapToken: undefined,
      rateLimits: { requests: 1200, periodSeconds: 60, authFailures: 120 },
      rateLimitStore: 'database',
      maxBodyBytes: 1_048_576,
      batchLimits: {
        maxBodyBytes: 2_097_152,
        maxDecompressedBytes: 8_388_608,
        maxLineBytes: 1_048_576,
        maxEnvelopes: 1000,
      },
      requestTimeoutSeconds: 30,
      trustedProxies: [],
      corsOrigins: ['*'],
      publicUrl: undefined,
      cookieSecure: 'auto',
      sessions: { idleSeconds: 604_800, maxAgeSeconds: 2_592_000 },
      logLevel: 'info',
      projection: {
        mode: 'server',
        thread: true,
        batchSize: 1000,
        readBarrierMs: 2000,
        maxLagSeconds: 60,
      },
      analytics: {
        enabled: false,
        url: undefined,
        database: 'tis',
        eventsTable: 'events_raw',
        spansTable: 'spans_raw',
        sessionsTable: 'session_minutes',
        username: 'default',
        password: '',
        failureThrottleSeconds: 60,
        drain: true,
      },
      sources: {
        secretKey: undefined,
        githubToken: undefined,
        githubApiUrl: 'https://api.github.com',
      },
      sourceMaps: {
        chunkSize: 2_097_152,
        maxBundleBytes: 67_108_864,
        maxUnpackedBytes: 268_435_456,
        maxFilesPerBundle: 10_000,
        maxProjectBytes: 1_073_741_824,
        cacheBytes: 134_217_728,
      },
      alerts: { allowPrivateTargets: false, worker: true, leaseSeconds: 60, smtp: null },
      retention: {
        days: 90,
        intervalSeconds: 3600,
        batchSize: 2000,
        analyticsDays: 90,
        analyticsRollupDays: 400,
      },
    })
  })

  it('keeps the analytics raw tables as long as everything else unless told otherwise', () => {
    expect(load({ SERVICE_RETENTION_DAYS: '30' }).retention).toMatchObject({
      days: 30,
      analyticsDays: 30,
    })
    expect(
      load({ SERVICE_RETENTION_DAYS: '30', SERVICE_ANALYTICS_RETENTION_DAYS: '0' }).retention,
    ).toMatchObject({ days: 30, analyticsDays: 0 })
  })

  it('treats blank values as unset', () => {
    expect(load({ PORT: '', DATABASE_URL: '  ', SERVICE_ENV: '' })).toMatchObject({
      port: 3000,
      database: { kind: 'pglite' },
      serviceEnvironment: 'production',
    })
  })

  it.each([
    ['PORT', '8080', { port: 8080 }],
    ['PORT', '0', { port: 0 }],
    ['HOST', '127.0.0.1', { host: '127.0.0.1' }],
    [
      'DATABASE_URL',
      'postgres://u:p@db:5432/tis',
      { database: { kind: 'postgres', url: 'postgres://u:p@db:5432/tis' } },
    ],
    [
      'DATABASE_URL',
      'postgresql://db/tis?sslmode=require',
      { database: { kind: 'postgres', url: 'postgresql://db/tis?sslmode=require' } },
    ],
    ['SERVICE_DATA_DIR', 'var/db', { database: { kind: 'pglite', dataDir: '/srv/tis/var/db' } }],
    ['SERVICE_DATA_DIR', '/data', { database: { kind: 'pglite', dataDir: '/data' } }],
    ['SERVICE_DATA_DIR', ':memory:', { database: { kind: 'pglite', dataDir: undefined } }],
    ['SERVICE_EMBEDDED_SYNC', 'Off', { database: { kind: 'pglite', sync: 'off' } }],
    ['SERVICE_EMBEDDED_SYNC', 'commit', { database: { kind: 'pglite', sync: 'commit' } }],
    [
      'SERVICE_EMBEDDED_SHARED_BUFFERS',
      ' 64MB ',
      { database: { kind: 'pglite', sharedBuffers: '64MB' } },
    ],
    ['SERVICE_TEXT_SEARCH_INDEX', 'false', { database: { textSearchIndex: false } }],
    ['SERVICE_TEXT_SEARCH_INDEX', '', { database: { textSearchIndex: true } }],
    ['SERVICE_ENV', 'staging', { serviceEnvironment: 'staging' }],
    [
      'SERVICE_ADMIN_EMAILS',
      ' Ops@Example.com, dev@example.com ,',
      { adminEmails: ['ops@example.com', 'dev@example.com'] },
    ],
    [
      'SERVICE_BOOTSTRAP_ADMIN_TOKEN',
      'tis_user_0123456789abcdef',
      { bootstrapToken: 'tis_user_0123456789abcdef' },
    ],
    ['SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS', '10', { rateLimits: { requests: 10 } }],
    ['SERVICE_PUBLIC_API_RATE_LIMIT_PERIOD_SECONDS', '1', { rateLimits: { periodSeconds: 1 } }],
    [
      'SERVICE_PUBLIC_API_AUTH_FAILURE_RATE_LIMIT_REQUESTS',
      '3',
      { rateLimits: { authFailures: 3 } },
    ],
    ['SERVICE_MAX_BODY_BYTES', '2048', { maxBodyBytes: 2048 }],
    ['SERVICE_BATCH_MAX_BODY_BYTES', '4096', { batchLimits: { maxBodyBytes: 4096 } }],
    [
      'SERVICE_BATCH_MAX_DECOMPRESSED_BYTES',
      '8192',
      { batchLimits: { maxDecompressedBytes: 8192 } },
    ],
    ['SERVICE_BATCH_MAX_ENVELOPE_BYTES', '512', { batchLimits: { maxLineBytes: 512 } }],
    ['SERVICE_REQUEST_TIMEOUT_SECONDS', '5', { requestTimeoutSeconds: 5 }],
    ['SERVICE_TRUSTED_PROXIES', '10.0.0.1, 10.0.0.2', { trustedProxies: ['10.0.0.1', '10.0.0.2'] }],
    ['SERVICE_TRUSTED_PROXIES', '*', { trustedProxies: ['*'] }],
    ['SERVICE_CORS_ORIGINS', '*', { corsOrigins: ['*'] }],
    [
      'SERVICE_CORS_ORIGINS',
      'https://App.example.com:443, http://localhost:5173',
      { corsOrigins: ['https://app.example.com', 'http://localhost:5173'] },
    ],
    ['SERVICE_PUBLIC_URL', 'https://tis.example.com/', { publicUrl: 'https://tis.example.com' }],
    ['SERVICE_COOKIE_SECURE', 'TRUE', { cookieSecure: 'true' }],
    ['SERVICE_COOKIE_SECURE', 'false', { cookieSecure: 'false' }],
    ['SERVICE_SESSION_IDLE_SECONDS', '3600', { sessions: { idleSeconds: 3600 } }],
    ['SERVICE_SESSION_MAX_AGE_SECONDS', '86400', { sessions: { maxAgeSeconds: 86_400 } }],
    ['SERVICE_LOG_LEVEL', 'SILENT', { logLevel: 'silent' }],
    ['SERVICE_ANALYTICS_ENABLED', 'false', { analytics: { enabled: false } }],
    ['SERVICE_ANALYTICS_URL', 'http://ch:8123', { analytics: { url: 'http://ch:8123' } }],
    ['SERVICE_ANALYTICS_DATABASE', 'tis', { analytics: { database: 'tis' } }],
    ['SERVICE_ANALYTICS_DRAIN', 'false', { analytics: { drain: false } }],
    ['SERVICE_ANALYTICS_EVENTS_TABLE', 'ev', { analytics: { eventsTable: 'ev' } }],
    ['SERVICE_ANALYTICS_SPANS_TABLE', 'sp', { analytics: { spansTable: 'sp' } }],
    ['SERVICE_ANALYTICS_SESSIONS_TABLE', 'se', { analytics: { sessionsTable: 'se' } }],
    ['SERVICE_ANALYTICS_USERNAME', 'tis', { analytics: { username: 'tis' } }],
    ['SERVICE_ANALYTICS_PASSWORD', 's3cret', { analytics: { password: 's3cret' } }],
    [
      'SERVICE_ANALYTICS_FAILURE_THROTTLE_SECONDS',
      '5',
      { analytics: { failureThrottleSeconds: 5 } },
    ],
    [
      'SERVICE_GITHUB_API_URL',
      'https://ghe.example.com/api/v3/',
      { sources: { githubApiUrl: 'https://ghe.example.com/api/v3' } },
    ],
    ['SERVICE_GITHUB_TOKEN', 'ghp_abc', { sources: { githubToken: 'ghp_abc' } }],
    ['SERVICE_SECRET_KEY', 'k'.repeat(32), { sources: { secretKey: 'k'.repeat(32) } }],
  ])('reads %s=%j', (name, value, expected) => {
    expect(load({ [name]: value })).toMatchObject(expected)
  })

  it('reads the SMTP settings of email alerts; implicit TLS defaults to port 465', () => {
    const smtp = { SERVICE_SMTP_HOST: 'mail.example.com', SERVICE_SMTP_FROM: 'tis <a@example.com>' }
    const env = {
      ...smtp,
      SERVICE_ALERTS_ALLOW_PRIVATE_TARGETS: 'true',
      SERVICE_ALERTS_WORKER: 'false',
    }
    expect(load(env).alerts).toEqual({
      allowPrivateTargets: true,
      worker: false,
      leaseSeconds: 60,
      smtp: {
        host: 'mail.example.com',
        port: 587,
        secure: false,
        user: undefined,
        password: undefined,
        from: 'tis <a@example.com>',
      },
    })
    expect(load({ ...smtp, SERVICE_SMTP_PORT: '465' }).alerts.smtp).toMatchObject({
      port: 465,
      secure: true,
    })
    expect(
      load({ ...smtp, SERVICE_SMTP_PORT: '465', SERVICE_SMTP_SECURE: 'false' }).alerts.smtp,
    ).toMatchObject({ secure: false })
  })

  it('reads the lease of claimed alert deliveries: 15 s at least, above the send timeout', () => {
    expect(load({ SERVICE_ALERTS_LEASE_SECONDS: '15' }).alerts.leaseSeconds).toBe(15)
    expect(() => load({ SERVICE_ALERTS_LEASE_SECONDS: '5' })).toThrow(
      /SERVICE_ALERTS_LEASE_SECONDS must be an integer from 15 to 3600/,
    )
  })

  it('needs SERVICE_SMTP_FROM with a host, and never echoes the SMTP password', () => {
    const error = (() => {
      try {
        load({
          SERVICE_SMTP_HOST: 'mail.example.com',
          SERVICE_SMTP_PORT: 'x',
          SERVICE_SMTP_PASSWORD: 'hunter2',
        })
      } catch (e) {
        return e as ConfigError
      }
    })()
    expect(error?.problems).toEqual([
      'SERVICE_SMTP_PORT must be an integer from 1 to 65535',
      'SERVICE_SMTP_FROM is required when SERVICE_SMTP_HOST is set',
    ])
    expect(error?.message).not.toContain('hunter2')
  })

  it('enables analytics with a URL', () => {
    const config = load({ SERVICE_ANALYTICS_ENABLED: 'YES', SERVICE_ANALYTICS_URL: 'https://ch' })
    expect(config.analytics).toMatchObject({ enabled: true, url: 'https://ch' })
  })

  it.each([
    ['PORT', 'abc', 'PORT must be an integer from 0 to 65535'],
    ['PORT', '70000', 'PORT must be an integer from 0 to 65535'],
    ['PORT', '-1', 'PORT must be an integer from 0 to 65535'],
    ['DATABASE_URL', 'mysql://db/tis', 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    ['DATABASE_URL', 'not a url', 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [
      'SERVICE_SECRET_KEY',
      'too-short',
      'SERVICE_SECRET_KEY must be at least 32 characters (e.g. `openssl rand -base64 48`)',
    ],
    ['SERVICE_GITHUB_TOKEN', 'two words', 'SERVICE_GITHUB_TOKEN must be a token without spaces'],
    [
      'SERVICE_GITHUB_API_URL',
      'ftp://ghe',
      'SERVICE_GITHUB_API_URL must be an http:// or https:// URL',
    ],
    [
      'SERVICE_ADMIN_EMAILS',
      'ops@example.com,nobody',
      'SERVICE_ADMIN_EMAILS must be a comma-separated list of email addresses',
    ],
    [
      'SERVICE_BOOTSTRAP_ADMIN_TOKEN',
      'short',
      'SERVICE_BOOTSTRAP_ADMIN_TOKEN must be `tis_user_` followed by 16 to 503 non-space characters',
    ],
    [
      'SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS',
      '0',
      'SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS must be an integer of at least 1',
    ],
    [
      'SERVICE_PUBLIC_API_RATE_LIMIT_PERIOD_SECONDS',
      '1.5',
      'SERVICE_PUBLIC_API_RATE_LIMIT_PERIOD_SECONDS must be an integer',
    ],
    [
      'SERVICE_PUBLIC_API_AUTH_FAILURE_RATE_LIMIT_REQUESTS',
      'many',
      'SERVICE_PUBLIC_API_AUTH_FAILURE_RATE_LIMIT_REQUESTS must be an integer',
    ],
    [
      'SERVICE_CORS_ORIGINS',
      'https://app.example.com/path',
      'SERVICE_CORS_ORIGINS must be `*` or a comma-separated list of origins (scheme://host[:port])',
    ],
    ['SERVICE_MAX_BODY_BYTES', '1e6', 'SERVICE_MAX_BODY_BYTES must be an integer'],
    [
      'SERVICE_BATCH_MAX_DECOMPRESSED_BYTES',
      '0',
      'SERVICE_BATCH_MAX_DECOMPRESSED_BYTES must be an integer of at least 1',
    ],
    [
      'SERVICE_REQUEST_TIMEOUT_SECONDS',
      '0',
      'SERVICE_REQUEST_TIMEOUT_SECONDS must be an integer from 1 to 3600',
    ],
    [
      'SERVICE_PUBLIC_URL',
      'tis.example.com',
      'SERVICE_PUBLIC_URL must be an http:// or https:// URL',
    ],
    ['SERVICE_COOKIE_SECURE', 'yes', 'SERVICE_COOKIE_SECURE must be one of auto, true, false'],
    [
      'SERVICE_SESSION_IDLE_SECONDS',
      '59',
      'SERVICE_SESSION_IDLE_SECONDS must be an integer from 60 to 31536000',
    ],
    [
      'SERVICE_SESSION_MAX_AGE_SECONDS',
      '31536001',
      'SERVICE_SESSION_MAX_AGE_SECONDS must be an integer from 60 to 31536000',
    ],
    [
      'SERVICE_LOG_LEVEL',
      'loud',
      'SERVICE_LOG_LEVEL must be one of debug, info, warn, error, silent',
    ],
    ['SERVICE_EMBEDDED_SYNC', 'interval', 'SERVICE_EMBEDDED_SYNC must be one of off, commit'],
    [
      'SERVICE_EMBEDDED_SHARED_BUFFERS',
      '16 MB',
      'SERVICE_EMBEDDED_SHARED_BUFFERS must be a size such as 16MB (kB, MB or GB)',
    ],
    ['SERVICE_ANALYTICS_ENABLED', 'maybe', 'SERVICE_ANALYTICS_ENABLED must be true or false'],
    [
      'SERVICE_ANALYTICS_EVENTS_TABLE',
      'events; drop table x',
      'SERVICE_ANALYTICS_EVENTS_TABLE must be an identifier: a letter or _, then letters, digits or _ (at most 64)',
    ],
    [
      'SERVICE_ANALYTICS_URL',
      'ch:8123',
      'SERVICE_ANALYTICS_URL must be an http:// or https:// URL',
    ],
    [
      'SERVICE_ANALYTICS_FAILURE_THROTTLE_SECONDS',
      '0',
      'SERVICE_ANALYTICS_FAILURE_THROTTLE_SECONDS must be an integer of at least 1',
    ],
  ])('rejects %s=%j, naming the variable', (name, value, message) => {
    const problems = problemsOf({ [name]: value })
    expect(problems).toHaveLength(1)
    expect(problems[0]).toContain(message)
  })

  it('requires SERVICE_ANALYTICS_URL when analytics is enabled', () => {
    expect(problemsOf({ SERVICE_ANALYTICS_ENABLED: 'true' })).toEqual([
      'SERVICE_ANALYTICS_URL is required when SERVICE_ANALYTICS_ENABLED is true',
    ])
  })

  it('lists every invalid variable at once and never echoes a secret', () => {
    const secretUrl = 'mysql://user:hunter2@db/tis'
    const error = (() => {
      try {
        load({ PORT: 'x', DATABASE_URL: secretUrl, SERVICE_BOOTSTRAP_ADMIN_TOKEN: 'hunter2' })
      } catch (e) {
        return e as Error
      }
    })()
    expect(ConfigError.is(error)).toBe(true)
    expect((error as ConfigError).problems.map((p) => p.split(' ')[0])).toEqual([
      'PORT',
      'DATABASE_URL',
      'SERVICE_BOOTSTRAP_ADMIN_TOKEN',
    ])
    expect(error?.message).not.toContain('hunter2')
  })
})

describe('secureCookies (SERVICE_COOKIE_SECURE)', () => {
  it.each([
    ['auto', 'https://tis.example.com', true],
    ['auto', 'HTTPS://tis.example.com', true],
    ['auto', 'http://tis.example.com', false],
    ['auto', undefined, false],
    ['true', 'http://tis.example.com', true],
    ['true', undefined, true],
    ['false', 'https://tis.example.com', false],
  ] as const)('%s with public URL %s: %s', (mode, publicUrl, secure) => {
    expect(secureCookies(mode, publicUrl)).toBe(secure)
  })
})

describe('CONFIG_VARIABLES', () => {
  it('describes every variable with a description and a default that parses', () => {
    for (const [name, variable] of Object.entries(CONFIG_VARIABLES)) {
      expect(variable.description.length, name).toBeGreaterThan(10)
      if (variable.default !== undefined) {
        expect(variable.schema.safeParse(variable.default).success, name).toBe(true)
      }
    }
  })
})

describe('docs/server.md', () => {
  it('embeds the configuration reference generated from CONFIG_VARIABLES', async () => {
    const docs = await readFile(new URL('../../../docs/server.md', import.meta.url), 'utf8')
    const embedded = /<!-- config-table:start -->\n([\s\S]*?)\n<!-- config-table:end -->/.exec(docs)
    // Compared cell by cell: the formatter pads the embedded table's columns.
    const cells = (table: string) =>
      table.split('\n').map((row) =>
        row
          .split('|')
          .map((cell) => cell.trim().replace(/^-+$/, '---'))
          .filter(Boolean),
      )
    expect(cells(embedded?.[1] ?? '')).toEqual(cells(configReferenceMarkdown()))
  })
})
