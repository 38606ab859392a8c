import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import {
  createProjector,
  createSourceMapResolver,
  type Projector,
  projectorErrors,
} from '@tis/ingest'
import type { Logger, LogLevel } from './logger'
import { openStore } from './store'

// The server's projection in a worker thread (SERVICE_PROJECTION_THREAD, on PostgreSQL): the
// projector's Node half (decoding log records, grouping, building rows, source-map resolution)
// no longer competes with acceptance for the request event loop. The thread has its own
// connections and source-map cache, as a `tis worker` does; exactly-once is the store's, as
// with any projector. The request thread keeps what makes reads wait and wake: every append
// nudges the thread, a waiting read hurries it, and every round that projected something wakes
// the waiting reads.

/** What the thread is given: plain data, cloned into it. */
export interface ProjectionThreadSettings {
  /** The PostgreSQL URL (`DATABASE_URL`), already migrated by the server. */
  readonly url: string
  /** Export what is projected to the analytics store (`SERVICE_ANALYTICS_ENABLED`). */
  readonly analytics: boolean
  /** Most entries per round (`SERVICE_PROJECTION_BATCH_SIZE`). */
  readonly roundSize: number
  /** Bound of the thread's parsed-map cache, in bytes (`SERVICE_SOURCEMAPS_CACHE_BYTES`). */
  readonly sourceMapCacheBytes: number
}

/** Options of {@link startProjectionThread}. */
export interface ProjectionThreadOptions {
  /**
   * The script the thread runs: an entry point that calls {@link runProjectionThread} when
   * {@link isProjectionThread} (the server's `main`: `dist/main.js`).
   */
  readonly script: string | URL
  readonly settings: ProjectionThreadSettings
  /** Says what the thread logs, and when it died. */
  readonly logger: Logger
  /** Pause before a thread that died is started again, in ms. @default 1000 */
  readonly restartMs?: number
  /** Longest a stop waits for the thread past its drain before terminating it, in ms. @default 10000 */
  readonly graceMs?: number
}

/** Connections of the thread: one round at a time, one for maintenance and the next claim. */
const THREAD_CONNECTIONS = 2
/** The `application_name` of the thread's connections, as `pg_stat_activity` shows them. */
export const PROJECTION_THREAD_APPLICATION = 'tis projection thread'
/** The mark of the thread's `workerData`. */
const MARK = 'tis-projection-thread'

type ToThread =
  | { readonly type: 'nudge'; readonly count: number }
  | { readonly type: 'hurry' }
  | { readonly type: 'stop'; readonly drainMs: number }
type FromThread =
  | { readonly type: 'progress' }
  | {
      readonly type: 'log'
      readonly level: Exclude<LogLevel, 'silent'>
      readonly msg: string
      readonly fields?: Record<string, unknown>
    }

/**
 * The projector of a server whose projection runs in a worker thread: the same {@link Projector}
 * the engine drives (`adapters.projector`). `start()` starts the thread; a thread that dies (an
 * unreachable database at its start, a crash) is logged and started again after `restartMs`;
 * `stop()` lets it finish its round, drain for up to `drainMs`, and close its connections.
 */
export function startProjectionThread(options: ProjectionThreadOptions): Projector {
  const { logger } = options
  const restartMs = options.restartMs ?? 1_000
  const listeners = new Set<() => void>()
  let worker: Worker | undefined
  let exited: Promise<void> = Promise.resolve()
  let restart: ReturnType<typeof setTimeout> | undefined
  let started = false
  let stopping = false

  function post(message: ToThread) {
    worker?.postMessage(message)
  }

  function spawn() {
    restart = undefined
    const thread = new Worker(options.script, { workerData: { [MARK]: options.settings } })
    worker = thread
    thread.on('message', (message: FromThread) => {
      if (message.type === 'progress') for (const listener of listeners) listener()
      else logger[message.level](message.msg, message.fields)
    })
    thread.on('error', (error) =>
      logger.error('projection thread failed', { error: error.message }),
    )
    exited = new Promise((resolve) => {
      thread.once('exit', (code) => {
        if (worker === thread) worker = undefined
        resolve()
        if (stopping) return
        logger.error('projection thread exited; starting it again', { code, in_ms: restartMs })
        restart = setTimeout(spawn, restartMs)
      })
    })
  }

  return {
    start() {
      if (started || stopping) return
      started = true
      spawn()
    },
    nudge: (count = 1) => post({ type: 'nudge', count }),
    hurry: () => post({ type: 'hurry' }),
    onProgress(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async stop(stopOptions = {}) {
      stopping = true
      if (restart) clearTimeout(restart)
      const thread = worker
      if (!thread) return
      const drainMs = stopOptions.drainMs ?? 0
      post({ type: 'stop', drainMs })
      const grace = setTimeout(() => void thread.terminate(), drainMs + (options.graceMs ?? 10_000))
      await exited
      clearTimeout(grace)
    },
  }
}

/** Whether this is a projection thread the server started (its script then runs the thread). */
export function isProjectionThread(): boolean {
  return !isMainThread && parentPort !== null && MARK in Object(workerData)
}

/**
 * The projection thread's body: opens its own connections to the server's database (migrated by
 * the server), projects round after round as nudged, and ends once told to stop.
 */
export async function runProjectionThread(): Promise<void> {
  const port = parentPort
  if (!port) throw new Error('runProjectionThread runs in a worker thread')
  const settings = (workerData as Record<typeof MARK, ProjectionThreadSettings>)[MARK]
  const say =
    (level: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) =>
      port.postMessage({ type: 'log', level, msg, ...(fields ? { fields } : {}) })
  const logger: Logger = {
    debug: say('debug'),
    info: say('info'),
    warn: say('warn'),
    error: say('error'),
  }
  const resolver = createSourceMapResolver({ cacheBytes: settings.sourceMapCacheBytes })
  const { store } = await openStore(
    { kind: 'postgres', url: settings.url },
    {
      analytics: settings.analytics,
      enrich: resolver.enrich,
      connections: THREAD_CONNECTIONS,
      applicationName: PROJECTION_THREAD_APPLICATION,
      migrate: false,
    },
  )
  const projector = createProjector({
    store,
    roundSize: settings.roundSize,
    onError: projectorErrors(logger),
  })
  projector.onProgress(() => port.postMessage({ type: 'progress' } satisfies FromThread))
  port.on('message', (message: ToThread) => {
    if (message.type === 'nudge') projector.nudge(message.count)
    else if (message.type === 'hurry') projector.hurry()
    else {
      void (async () => {
        await projector.stop({ drainMs: message.drainMs })
        await store.close()
        port.close()
      })()
    }
  })
  projector.start()
}
