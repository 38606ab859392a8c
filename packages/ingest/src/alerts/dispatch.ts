import type { EngineLogger } from '../logger'
import type { AlertAttempt, AlertDeliveryStore, ClaimedAlertDelivery } from '../ports/alerts'
import { nextAttemptAt, retryAfterMs } from './backoff'
import type { Mailer } from './email'
import { errorText, type SendResult } from './outcome'
import { sendDelivery } from './send'
import type { WebhookSend } from './webhook-send'

/** Options of {@link createAlertDispatcher}. */
export interface AlertDispatcherOptions {
  readonly store: Pick<AlertDeliveryStore, 'claimAlertDeliveries' | 'finishAlertDelivery'>
  /**
   * How messages leave: webhooks and Slack through the host's HTTP sender, email through its
   * mailer. Without one, that channel's attempts are retried with the reason ("no webhook sender
   * configured (adapters.webhook)", "email is not configured (SERVICE_SMTP_*)") and nothing is sent.
   */
  readonly send: { readonly webhook?: WebhookSend | null; readonly email?: Mailer | null }
  readonly logger: EngineLogger
  /** @default () => new Date() */
  readonly now?: () => Date
  /**
   * How long a claim holds a delivery, in ms: a process that dies mid-send leaves it to
   * another after this. Keep it well above `timeoutMs`. @default 60000
   */
  readonly leaseMs?: number
  /** Most deliveries claimed (and sent at once) per round. @default 20 */
  readonly batchSize?: number
  /** Longest one send may take, in ms. @default 10000 */
  readonly timeoutMs?: number
  /**
   * Checks a webhook or Slack URL right before sending (the private-address rule, DNS may have
   * changed since the channel was created): `null` allows it, a string is the refusal, recorded
   * as the attempt's error (nothing is sent; the attempt is retried like a failed one).
   */
  readonly allowTarget?: (url: string) => Promise<string | null>
  /** @default 'tis-alerts' */
  readonly userAgent?: string
  /** Jitter source, in [0, 1). @default Math.random */
  readonly random?: () => number
}

/** What one round did. */
export interface AlertDispatchRound {
  readonly claimed: number
  readonly delivered: number
  readonly retried: number
  readonly failed: number
}

/** Delivers the alerts outbox: one round per call, driven by the host (no timers inside). */
export interface AlertDispatcher {
  /** Claims due deliveries, sends each (at once, each with a timeout) and records each outcome. */
  runOnce(): Promise<AlertDispatchRound>
  readonly batchSize: number
}

/** Races `promise` against a timeout; the loser is ignored. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Creates the alert dispatcher: at-least-once delivery of the outbox with leases, retries with
 * backoff and jitter (docs/alerts.md, "Retry schedule"), and the delivery id stable throughout.
 */
export function createAlertDispatcher(options: AlertDispatcherOptions): AlertDispatcher {
  const { store, logger } = options
  const clock = options.now ?? (() => new Date())
  const leaseMs = options.leaseMs ?? 60_000
  const batchSize = options.batchSize ?? 20
  const timeoutMs = options.timeoutMs ?? 10_000
  const context = {
    send: options.send,
    timeoutMs,
    userAgent: options.userAgent ?? 'tis-alerts',
    ...(options.allowTarget ? { allowTarget: options.allowTarget } : {}),
  }

  function toAttempt(d: ClaimedAlertDelivery, result: SendResult, at: Date): AlertAttempt {
    if (result.kind === 'delivered') {
      return {
        status: 'delivered',
        at,
        nextAttemptAt: null,
        responseCode: result.responseCode,
        error: null,
      }
    }
    const base = { at, responseCode: result.responseCode }
    if (result.kind === 'retry') {
      const wait = retryAfterMs(result.retryAfter ?? null, at)
      const next = nextAttemptAt(
        { attempts: d.attempts, createdAt: d.createdAt, retryAfterMs: wait },
        at,
        options.random,
      )
      if (next) return { ...base, status: 'pending', nextAttemptAt: next, error: result.error }
      const error = `${result.error} (gave up after ${d.attempts} attempts)`
      return { ...base, status: 'failed', nextAttemptAt: null, error }
    }
    return { ...base, status: 'failed', nextAttemptAt: null, error: result.error }
  }

  async function deliver(d: ClaimedAlertDelivery): Promise<AlertAttempt['status']> {
    let result: SendResult
    try {
      // A little over the send's own timeout: the sender reports its timeout itself.
      result = await within(sendDelivery(d, context), timeoutMs + 1_000)
    } catch (error) {
      result = { kind: 'retry', responseCode: null, error: errorText(error) }
    }
    const attempt = toAttempt(d, result, clock())
    if (attempt.status === 'failed') {
      logger.warn('alert delivery failed', {
        delivery: d.id,
        channel: d.channelId,
        error: attempt.error,
      })
    }
    try {
      await store.finishAlertDelivery(d.id, attempt)
    } catch (error) {
      // The lease runs out and the delivery is attempted again: at least once, never lost.
      logger.error('could not record an alert delivery attempt; it will be retried', {
        delivery: d.id,
        error: errorText(error),
      })
    }
    return attempt.status
  }

  return {
    batchSize,
    async runOnce() {
      const now = clock()
      const claimed = await store.claimAlertDeliveries(
        now,
        batchSize,
        new Date(now.getTime() + leaseMs),
      )
      const statuses = await Promise.all(claimed.map(deliver))
      const count = (s: AlertAttempt['status']) => statuses.filter((x) => x === s).length
      return {
        claimed: claimed.length,
        delivered: count('delivered'),
        retried: count('pending'),
        failed: count('failed'),
      }
    },
  }
}
