import { createAlertDispatcher } from '../alerts/dispatch'
import type { Mailer } from '../alerts/email'
import type { WebhookSend } from '../alerts/webhook-send'
import type { EngineLogger } from '../logger'
import { createLoop, type Loop } from '../loop'
import type { AlertDeliveryStore } from '../ports'

/** Most monitors moved to `missed` per statement of a round. */
export const MISSED_MONITORS_BATCH = 100

/** Most (rule, minute) summaries recorded per statement of a round. */
export const SUMMARIES_BATCH = 100

/** How often the release health rules are checked, in ms. */
export const RELEASE_CHECK_MS = 15_000

/** Options of {@link createAlertsWorker}. */
export interface AlertsWorkerOptions {
  readonly store: AlertDeliveryStore
  readonly logger: EngineLogger | undefined
  readonly now: () => Date
  /** Pause between rounds, in ms. */
  readonly intervalMs: number
  readonly leaseMs: number
  /**
   * Posts webhooks and Slack messages (the host's network I/O).
   * @default none: webhook and Slack attempts fail with "no webhook sender configured
   * (adapters.webhook)" and are retried
   */
  readonly webhook?: WebhookSend | undefined
  readonly mailer: Mailer | null
  readonly userAgent: string
  /** The send-time check of webhook and Slack targets: `null` when allowed, else the reason. */
  readonly allowTarget: (url: string) => Promise<string | null>
  /** Deliveries per claim. @default 20 */
  readonly batchSize?: number
  /** Longest wait for a receiver's answer, in ms. @default 10000 */
  readonly timeoutMs?: number
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * The background delivery of alerts: every round, the missed-monitor scan, the summaries of past
 * minutes, then the dispatcher's claims until one comes back short. Each step's failure is
 * logged and retried at the next round.
 */
export function createAlertsWorker(options: AlertsWorkerOptions): Loop {
  const { store, logger, now } = options
  const dispatcher = createAlertDispatcher({
    store,
    send: { webhook: options.webhook ?? null, email: options.mailer },
    logger: logger ?? { warn() {}, error() {} },
    now,
    userAgent: options.userAgent,
    allowTarget: options.allowTarget,
    leaseMs: options.leaseMs,
    ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  })
  const step = async (what: string, run: () => Promise<unknown>) => {
    try {
      await run()
    } catch (error) {
      logger?.error(`${what} failed; retrying`, { error: message(error) })
    }
  }
  let lastReleaseCheck = Number.NEGATIVE_INFINITY
  const loop = createLoop({
    intervalMs: options.intervalMs,
    onError: (error) =>
      logger?.error('alert delivery round failed; retrying', { error: message(error) }),
    async round({ signal }) {
      await step('missed-monitor scan', () =>
        store.markMissedMonitors(now(), MISSED_MONITORS_BATCH),
      )
      await step('alert summaries', () => store.summarizeAlertBursts(now(), SUMMARIES_BATCH))
      // Crash-free rates change by the minute: checked every RELEASE_CHECK_MS, not every round.
      const at = now()
      if (at.getTime() - lastReleaseCheck >= RELEASE_CHECK_MS) {
        lastReleaseCheck = at.getTime()
        await step('release health check', () => store.checkReleaseHealth(at))
      }
      await step('alert delivery round', async () => {
        while (!signal.aborted) {
          const done = await dispatcher.runOnce()
          if (done.claimed < dispatcher.batchSize) break
        }
      })
    },
  })
  // A round run on demand (`engine.runAlerts()`) checks the release health rules too.
  const runOnce = loop.runOnce
  loop.runOnce = () => {
    lastReleaseCheck = Number.NEGATIVE_INFINITY
    return runOnce()
  }
  return loop
}
