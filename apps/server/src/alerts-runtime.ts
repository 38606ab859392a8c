import { createRequire } from 'node:module'
import {
  type AlertDeliveryStore,
  type AlertDispatcher,
  createAlertDispatcher,
  createFetchWebhookSend,
  type WebhookSend,
} from '@tis/ingest'
import { createSmtpMailer, type SmtpSettings } from './alerts-mailer'
import type { Logger } from './logger'

/**
 * A store that delivers alerts; `markMissedMonitors` and `summarizeAlertBursts` may be absent
 * (an older store).
 */
export type AlertsStore = Pick<AlertDeliveryStore, 'claimAlertDeliveries' | 'finishAlertDelivery'> &
  Partial<Pick<AlertDeliveryStore, 'markMissedMonitors' | 'summarizeAlertBursts'>>

/** Whether `store` can deliver alerts. */
export function hasAlertDelivery(store: object): store is AlertsStore {
  const s = store as Partial<AlertsStore>
  return typeof s.claimAlertDeliveries === 'function' && typeof s.finishAlertDelivery === 'function'
}

/** Pause between rounds of the alerts worker, in ms. */
export const ALERTS_INTERVAL_MS = 1_000

/** Most monitors moved to `missed` per statement of a round. */
export const MISSED_MONITORS_BATCH = 100

/** Most (rule, minute) summaries recorded per statement of a round. */
export const SUMMARIES_BATCH = 100

/** Options of {@link createAlertsRuntime}. */
export interface AlertsRuntimeOptions {
  readonly store: AlertsStore
  readonly logger: Logger
  /** Email settings (`config.alerts.smtp`); without them email attempts fail and are retried. */
  readonly smtp?: SmtpSettings | null
  /** @default ALERTS_INTERVAL_MS */
  readonly intervalMs?: number
  /** @default () => new Date() */
  readonly now?: () => Date
  /** @default a fetch sender (10 s timeout, redirects not followed) */
  readonly webhook?: WebhookSend
  /** The send-time check of webhook and Slack targets (see `createAlertDispatcher`). */
  readonly allowTarget?: (url: string) => Promise<string | null>
  /** @default 20 */
  readonly batchSize?: number
  /** @default 60000 */
  readonly leaseMs?: number
  /** @default 10000 */
  readonly timeoutMs?: number
}

/** The alerts worker of a server process. */
export interface AlertsRuntime {
  readonly dispatcher: AlertDispatcher
  /** Starts the rounds (one every `intervalMs`, never two at once). */
  start(): void
  /**
   * One round now: missed monitors, the summaries of past minutes, then deliveries until a claim
   * comes back short.
   */
  tick(): Promise<void>
  /**
   * Stops: no new round; the running one finishes its attempts (each bounded by its timeout)
   * and records them. Safe to call more than once.
   */
  stop(): Promise<void>
}

function userAgent(): string {
  try {
    const pkg = createRequire(import.meta.url)('../package.json') as { version?: string }
    return `tis-alerts/${pkg.version ?? '0.0.0'}`
  } catch {
    return 'tis-alerts'
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * Composes the background delivery of alerts: every second, the missed-monitor scan (when the
 * store has it) and the dispatcher's rounds. Errors are logged, never thrown.
 */
export function createAlertsRuntime(options: AlertsRuntimeOptions): AlertsRuntime {
  const { store, logger } = options
  const now = options.now ?? (() => new Date())
  const mailer = options.smtp ? createSmtpMailer(options.smtp) : null
  const dispatcher = createAlertDispatcher({
    store,
    send: { webhook: options.webhook ?? createFetchWebhookSend(), email: mailer },
    logger,
    now,
    userAgent: userAgent(),
    ...(options.allowTarget ? { allowTarget: options.allowTarget } : {}),
    ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  })
  const intervalMs = options.intervalMs ?? ALERTS_INTERVAL_MS
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<void> | undefined
  let stopped = false

  async function round() {
    if (typeof store.markMissedMonitors === 'function') {
      try {
        await store.markMissedMonitors(now(), MISSED_MONITORS_BATCH)
      } catch (error) {
        logger.error('missed-monitor scan failed; retrying', { error: message(error) })
      }
    }
    if (typeof store.summarizeAlertBursts === 'function') {
      try {
        await store.summarizeAlertBursts(now(), SUMMARIES_BATCH)
      } catch (error) {
        logger.error('alert summaries failed; retrying', { error: message(error) })
      }
    }
    try {
      while (!stopped) {
        const done = await dispatcher.runOnce()
        if (done.claimed < dispatcher.batchSize) break
      }
    } catch (error) {
      logger.error('alert delivery round failed; retrying', { error: message(error) })
    }
  }

  function tick() {
    running ??= round().finally(() => {
      running = undefined
    })
    return running
  }

  function schedule() {
    if (stopped) return
    timer = setTimeout(() => {
      void tick().then(schedule)
    }, intervalMs)
    timer.unref?.()
  }

  return {
    dispatcher,
    start() {
      if (timer || stopped) return
      schedule()
    },
    tick,
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
      mailer?.close()
    },
  }
}
