import { createEngine, createSourceMapResolver } from '@tis/ingest'
import { createAnalyticsRuntime, migrateAnalytics } from '../analytics'
import { ConfigError, loadConfig, type ServerConfig } from '../config'
import { createLogger } from '../logger'
import { openStore } from '../store'
import { pruneReport } from './retention-commands'

/** Exit codes shared with the API commands. */
const OK = 0
const FAILED = 1
const USAGE = 2

/** Where a local command reads its environment and writes; `stop` ends a long-running one. */
export interface LocalIo {
  readonly env: Readonly<Record<string, string | undefined>>
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  /** Resolves when `tis worker` should stop. @default SIGTERM or SIGINT */
  readonly stop?: Promise<void>
  /** The flags local commands read (`tis prune --dry-run --project <id> --json`). */
  readonly options?: {
    readonly dryRun?: boolean
    readonly project?: string
    readonly json?: boolean
  }
}

/** A command that runs against the server's own configuration (`SERVICE_*`), not over HTTP. */
export interface LocalCommand {
  readonly name: string
  readonly summary: string
  run(io: LocalIo): Promise<number>
}

/** Loads the configuration, printing its problems; `undefined` when invalid. */
function config(io: LocalIo): ServerConfig | undefined {
  try {
    return loadConfig(io.env)
  } catch (error) {
    if (!ConfigError.is(error)) throw error
    io.stderr(`tis: ${error.message}\n`)
    return undefined
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Opens the configured store, printing why it could not; `undefined` then. */
async function opened(
  io: LocalIo,
  c: ServerConfig,
  options?: Parameters<typeof openStore>[1],
): Promise<Awaited<ReturnType<typeof openStore>> | undefined> {
  try {
    return await openStore(c.database, options)
  } catch (error) {
    io.stderr(`tis: could not open the database: ${message(error)}\n`)
    return undefined
  }
}

/** Resolves on the first SIGTERM or SIGINT. */
function signalled(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGTERM', done)
      process.off('SIGINT', done)
      resolve()
    }
    process.once('SIGTERM', done)
    process.once('SIGINT', done)
  })
}

/** `tis prune`: one retention pass now, or with `--dry-run` what it would delete. */
const PRUNE: LocalCommand = {
  name: 'prune',
  summary:
    "Delete the events, spans and check-ins older than each project's retention period now (SERVICE_RETENTION_DAYS or the project's own); --dry-run only says what would go; --project <id> limits it to one project.",
  async run(io) {
    const c = config(io)
    if (!c) return USAGE
    const open = await opened(io, c)
    if (!open) return FAILED
    const { store } = open
    try {
      const report = await store.expireTelemetry({
        now: new Date(),
        defaultDays: c.retention.days,
        batchSize: c.retention.batchSize,
        dryRun: io.options?.dryRun ?? false,
        ...(io.options?.project ? { projectId: io.options.project } : {}),
      })
      io.stdout(io.options?.json ? `${JSON.stringify(report, null, 2)}\n` : pruneReport(report))
      return OK
    } catch (error) {
      io.stderr(`tis: prune failed: ${message(error)}\n`)
      return FAILED
    } finally {
      await store.close()
    }
  },
}

/** `tis analytics migrate` and `tis worker` (projection and analytics export). */
export const LOCAL_COMMANDS: readonly LocalCommand[] = [
  {
    name: 'analytics migrate',
    summary:
      'Create the analytics store tables and views in ClickHouse (SERVICE_ANALYTICS_*; also done at server start).',
    async run(io) {
      const c = config(io)
      if (!c) return USAGE
      if (!c.analytics.enabled) {
        io.stderr('tis: the analytics store is disabled: set SERVICE_ANALYTICS_ENABLED=true\n')
        return USAGE
      }
      try {
        const { features, tables, readiness } = await migrateAnalytics(c.analytics, c.retention)
        const kind = features.modern ? 'DateTime64, LowCardinality' : 'classic types'
        io.stdout(
          `Analytics store ready: ClickHouse ${features.version} (${kind}), database ${tables.database}, tables ${tables.eventsTable}, ${tables.spansTable}, events_1m, request_spans_1m, ${tables.sessionsTable}.\n`,
        )
        return readiness.ready ? OK : FAILED
      } catch (error) {
        io.stderr(`tis: analytics migration failed: ${message(error)}\n`)
        return FAILED
      }
    },
  },
  {
    name: 'worker',
    summary:
      'Project the ingest log into issues, events, spans and monitors, and export what it projected to ClickHouse when SERVICE_ANALYTICS_ENABLED, until SIGTERM (needs DATABASE_URL; several may run at once).',
    async run(io) {
      const c = config(io)
      if (!c) return USAGE
      if (c.database.kind !== 'postgres') {
        io.stderr(
          'tis: tis worker needs PostgreSQL (DATABASE_URL): the embedded database is only open in the server, which projects and drains it itself\n',
        )
        return USAGE
      }
      const logger = createLogger({
        level: c.logLevel,
        write: (line) => io.stdout(line),
      })
      // The worker's projection resolves source maps like the server's (its own cache).
      const resolver = createSourceMapResolver({ cacheBytes: c.sourceMaps.cacheBytes })
      const open = await opened(io, c, {
        analytics: c.analytics.enabled,
        enrich: resolver.enrich,
      })
      if (!open) return FAILED
      const { store } = open
      // The engine with only its projector: alerts and retention run in the servers.
      const engine = createEngine({
        store,
        config: {
          projection: { run: true, batchSize: c.projection.batchSize },
          alerts: { worker: false },
          retention: { intervalSeconds: 0 },
        },
        adapters: { logger },
      })
      engine.start()
      const runtime = c.analytics.enabled
        ? createAnalyticsRuntime({
            config: c.analytics,
            outbox: open.outbox,
            logger,
            retention: c.retention,
          })
        : undefined
      if (runtime) {
        await runtime.migrate().catch((error: unknown) =>
          logger.warn('analytics store migration failed; retrying before the first export', {
            error: message(error),
          }),
        )
        runtime.startDrainer()
      }
      logger.info('worker started', {
        projection: engine.workers.projector,
        analytics: runtime ? c.analytics.database : false,
      })
      await (io.stop ?? signalled())
      await engine.stop()
      await runtime?.close()
      await store.close()
      logger.info('worker stopped')
      return OK
    },
  },
  PRUNE,
]

/** The local command named by the leading positionals, if any. */
export function findLocalCommand(positionals: readonly string[]): LocalCommand | undefined {
  return LOCAL_COMMANDS.find((c) => c.name.split(' ').every((w, i) => positionals[i] === w))
}
