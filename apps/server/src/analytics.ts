import { type ClickHouseClient, createClient } from '@clickhouse/client'
import {
  type AnalyticsDrainer,
  type AnalyticsDrainerStats,
  type ClickHouseAnalyticsStore,
  clickHouseClientOptions,
  createAnalyticsDrainer,
  createClickHouseAnalyticsStore,
} from '@tis/analytics-clickhouse'
import { type AnalyticsOutbox, createLoop, type Loop } from '@tis/ingest'
import type { AnalyticsConfig, RetentionConfig } from './config'
import type { Logger } from './logger'

/** The answer of `GET /health/analytics_store`. */
export interface AnalyticsHealth {
  readonly status: 200 | 503
  readonly body: Record<string, unknown>
}

/** The analytics store as the server runs it: schema, readiness and the background drainer. */
export interface AnalyticsRuntime {
  readonly enabled: boolean
  /**
   * Creates the tables and views (`tis analytics migrate`; also run at start). Rejects when
   * ClickHouse refuses.
   */
  migrate(): Promise<void>
  /** Readiness and queue depth for `GET /health/analytics_store`; never rejects. */
  health(): Promise<AnalyticsHealth>
  /** Prometheus lines of the queue and the exporter (empty when disabled). */
  metrics(): Promise<string>
  /** Starts exporting in the background (no-op when disabled). */
  startDrainer(): void
  /** Stops the drainer (after the batch in flight) and closes the ClickHouse client. */
  close(): Promise<void>
}

/** The retention settings the analytics store reads. */
export type AnalyticsRetention = Pick<
  RetentionConfig,
  'analyticsDays' | 'analyticsRollupDays' | 'intervalSeconds'
>

/** The ClickHouse client and store of enabled settings. */
function connect(config: AnalyticsConfig, retention: AnalyticsRetention | undefined) {
  const client: ClickHouseClient = createClient(
    clickHouseClientOptions({
      enabled: true,
      url: config.url ?? 'http://localhost:8123',
      database: config.database,
      eventsTable: config.eventsTable,
      spansTable: config.spansTable,
      sessionsTable: config.sessionsTable,
      username: config.username,
      password: config.password,
      failureThrottleSeconds: config.failureThrottleSeconds,
    }),
  )
  const store: ClickHouseAnalyticsStore = createClickHouseAnalyticsStore(client, {
    database: config.database,
    eventsTable: config.eventsTable,
    spansTable: config.spansTable,
    sessionsTable: config.sessionsTable,
    retentionDays: retention?.analyticsDays,
    rollupRetentionDays: retention?.analyticsRollupDays,
  })
  return { client, store }
}

/**
 * `tis analytics migrate`: creates the analytics database, tables and views when missing
 * (idempotent) and resolves the server version and the tables it made.
 */
export async function migrateAnalytics(config: AnalyticsConfig, retention?: AnalyticsRetention) {
  const { client, store } = connect(config, retention)
  try {
    const features = await store.migrate()
    const readiness = await store.checkReady()
    return { features, tables: store.tables, readiness }
  } finally {
    await client.close()
  }
}

/** Options of {@link createAnalyticsRuntime}. */
export interface AnalyticsRuntimeOptions {
  readonly config: AnalyticsConfig
  readonly outbox: AnalyticsOutbox | undefined
  readonly logger: Logger
  /** Drainer pacing (tests shorten it). @default 1000 */
  readonly drainIntervalMs?: number
  /**
   * Retention periods (TTL on ClickHouse 21+; before that, a pass beside the drainer every
   * `intervalSeconds` drops monthly partitions). Absent: the tables keep everything.
   */
  readonly retention?: AnalyticsRetention | undefined
}

const DISABLED_HEALTH: AnalyticsHealth = {
  status: 200,
  body: { status: 'disabled', enabled: false, ready: false },
}

/** The runtime of a disabled analytics store: health says so, nothing runs. */
function disabledRuntime(): AnalyticsRuntime {
  return {
    enabled: false,
    async migrate() {
      throw new Error('the analytics store is disabled (set SERVICE_ANALYTICS_ENABLED=true)')
    },
    health: async () => DISABLED_HEALTH,
    metrics: async () => '',
    startDrainer() {},
    close: async () => {},
  }
}

/**
 * The analytics runtime for the configuration. Disabled: health answers `disabled` and no
 * ClickHouse client exists. Enabled: a client, the schema (migrated lazily before the first
 * export if start-up could not), and a drainer whose throttled failure reports become log lines.
 */
export function createAnalyticsRuntime(options: AnalyticsRuntimeOptions): AnalyticsRuntime {
  const { config, outbox, logger } = options
  if (!config.enabled || !outbox) return disabledRuntime()
  const { client, store } = connect(config, options.retention)
  let migrated = false
  let expiry: Loop | undefined
  async function migrate() {
    await store.migrate()
    migrated = true
  }
  let drainer: AnalyticsDrainer | undefined

  async function queue() {
    const stats = await outbox!.stats()
    const oldest = stats.oldestEnqueuedAt
    return {
      depth: stats.depth,
      oldest_age_seconds: oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0,
    }
  }

  const idle: AnalyticsDrainerStats = {
    running: false,
    exported: 0,
    skipped: 0,
    failures: 0,
    consecutiveFailures: 0,
  }

  return {
    enabled: true,
    migrate,

    async health() {
      const [readiness, q] = await Promise.all([store.checkReady(), queue().catch(() => null)])
      if (readiness.ready) {
        return { status: 200, body: { status: 'ok', enabled: true, ready: true, queue: q } }
      }
      return {
        status: 503,
        body: {
          status: 'degraded',
          enabled: true,
          ready: false,
          reachable: readiness.reachable,
          missing_tables: readiness.missingTables,
          queue: q,
        },
      }
    },

    async metrics() {
      const q = await queue().catch(() => null)
      const s = drainer?.stats() ?? idle
      const lines = [
        '# HELP tis_analytics_outbox_depth Records waiting for export to the analytics store.',
        '# TYPE tis_analytics_outbox_depth gauge',
        `tis_analytics_outbox_depth ${q?.depth ?? 'NaN'}`,
        '# HELP tis_analytics_outbox_oldest_age_seconds Age of the oldest waiting record.',
        '# TYPE tis_analytics_outbox_oldest_age_seconds gauge',
        `tis_analytics_outbox_oldest_age_seconds ${q?.oldest_age_seconds ?? 'NaN'}`,
        '# HELP tis_analytics_exported_total Records exported by this process.',
        '# TYPE tis_analytics_exported_total counter',
        `tis_analytics_exported_total ${s.exported}`,
        '# HELP tis_analytics_export_failures_total Failed export steps in this process.',
        '# TYPE tis_analytics_export_failures_total counter',
        `tis_analytics_export_failures_total ${s.failures}`,
      ]
      return `${lines.join('\n')}\n`
    },

    startDrainer() {
      if (drainer) return
      drainer = createAnalyticsDrainer({
        outbox,
        sink: {
          // Tables first: a server that started while ClickHouse was down migrates on recovery.
          async insert(records) {
            if (!migrated) await migrate()
            return store.insert(records)
          },
        },
        intervalMs: options.drainIntervalMs ?? 1_000,
        throttleSeconds: config.failureThrottleSeconds,
        onFailure: (report) =>
          logger.warn('analytics export failing', {
            kind: report.kind,
            error: report.message,
            suppressed: report.suppressed,
            failures: report.total,
          }),
      })
      drainer.start()
      const retention = options.retention
      if (retention && retention.intervalSeconds > 0) {
        const intervalMs = retention.intervalSeconds * 1000
        expiry = createLoop({
          intervalMs,
          firstDelayMs: intervalMs,
          onError: (cause) =>
            logger.warn('analytics retention pass failed', { error: String(cause) }),
          async round() {
            if (!migrated) return undefined
            const dropped = await store.expire()
            if (dropped.length > 0) logger.info('analytics partitions expired', { dropped })
            return undefined
          },
        })
        expiry.start()
      }
    },

    async close() {
      await expiry?.stop()
      await drainer?.stop()
      await client.close()
    },
  }
}
