import { createBatchSender, dropped, sent } from './batch'
import { createBuffer, type Item } from './buffer'
import { SILENT } from './logger'
import { createPauses } from './pauses'
import type { TransportOptions } from './transport-options'
import type {
  DropReason,
  MakeRequest,
  RequestOutcome,
  Transport,
  TransportResult,
} from './transport-types'
import { createWaiters } from './waiters'
import { createWaits } from './waits'

export type { TransportOptions } from './transport-options'

/**
 * A transport that owns buffering and retry policy around a `makeRequest` function that only
 * does I/O: a bounded buffer, limited concurrency, per-attempt timeouts, jittered exponential
 * backoff on network errors and 5xx, per-endpoint `Retry-After` on 429, no retry on other 4xx.
 *
 * Each request is a small state machine. It waits in the buffer's queue (`queued`) until a
 * slot is free and its endpoint is not paused, then is attempted (`sending`). Its answer moves
 * it on: to `settled` (2xx, a final 4xx, retries used up), to `backing off` and `sending` again
 * (a network error or 5xx; the slot is kept, so a failing server gets no more requests), back
 * to `queued` at the front (a 429, which pauses its endpoint; a batch the server refused as a
 * batch, record by record), or to `sending` again at once (a 401 with fresh credentials). A
 * closed transport settles everything as `closed`.
 */
export function createTransport(options: TransportOptions, makeRequest: MakeRequest): Transport {
  const {
    concurrency = 2,
    timeoutMs = 10_000,
    maxRetries = 3,
    backoffMs = 1000,
    maxBackoffMs = 30_000,
    maxRateLimitWaitMs = 60_000,
  } = options
  const log = options.logger ?? SILENT
  const buffer = createBuffer(options.maxQueueSize ?? 100, options.maxQueueBytes ?? 1_048_576)
  const { queue_: queue } = buffer
  const waiters = createWaiters(buffer.pending_)
  const pauses = createPauses(pump)
  const waits = createWaits()
  const batches = createBatchSender(queue, settle, log)
  const reported = new Set<string>()
  let active = 0
  let closed = false

  /** Settles a record, or every member of a batch. */
  function settle(item: Item, result: TransportResult) {
    if (item.members_) for (const m of item.members_) settle(m, result)
    else {
      buffer.release_(item)
      waiters.count_(result)
      item.resolve_(result)
    }
  }

  function drop(item: Item, reason: DropReason, statusCode?: number) {
    settle(item, dropped(reason, statusCode))
  }

  /**
   * Starts queued requests while slots are free; those of a paused endpoint wait. Drops those
   * of an endpoint paused for longer than is worth waiting, and all of them once closed.
   */
  function pump(slots = concurrency) {
    for (let i = 0; i < queue.length; ) {
      const item = queue[i]!
      const left = pauses.left_(item.request_.endpoint)
      if (closed || left > maxRateLimitWaitMs) {
        drop(queue.splice(i, 1)[0]!, closed ? 'closed' : 'rate_limited')
      } else if (left > 0 || active >= slots) i++
      else {
        queue.splice(i, 1)
        active++
        void run(batches.gather_(item))
      }
    }
  }

  /** A 429: its endpoint pauses, and the request waits in the queue (or is dropped). */
  function rateLimited(item: Item, retryAfter: string | null) {
    const endpoint = item.request_.endpoint
    if (pauses.pause_(endpoint, retryAfter) > maxRateLimitWaitMs) {
      // The queued records of its endpoint are dropped by the next pump.
      log(`${endpoint} rate limited`)
      return drop(item, 'rate_limited', 429)
    }
    // Waiting is bounded too: a record 429'd more than maxRetries times is dropped.
    for (const m of (item.members_ ?? [item]).reverse()) {
      if (m.attempt_++ >= maxRetries) drop(m, 'rate_limited', 429)
      else queue.unshift(m)
    }
  }

  /** Moves one request from `sending` through its states until it settles or goes back. */
  async function run(item: Item) {
    try {
      while (!closed) {
        let outcome: RequestOutcome | undefined
        try {
          outcome = await waits.within_(timeoutMs, (signal) =>
            makeRequest(item.request_, signal, !!item.refreshed_),
          )
        } catch (error) {
          // A network error, a timeout or a throwing makeRequest.
          log('request failed', error)
        }
        const status = outcome?.status ?? 0
        if (batches.answered_(item, status, outcome?.lines)) return
        if (!status || status >= 500) {
          if (closed) break
          if (item.attempt_ >= maxRetries) {
            return drop(item, status ? 'server_error' : 'network_error')
          }
          // Full jitter under a ceiling that starts at backoffMs and doubles per retry.
          await waits.sleep_(
            Math.random() * Math.min(maxBackoffMs, backoffMs * 2 ** item.attempt_++),
          )
        } else if (status < 300) {
          // A single record's 200 says the server already had it (a batch's lines say so).
          return settle(item, sent(status, status === 200))
        } else if (status === 429) return rateLimited(item, outcome!.retryAfter)
        else if (status === 401 && options.refreshOn401 && !item.refreshed_) item.refreshed_ = true
        else {
          // Refused for good: each endpoint and status is reported once.
          const key = `${item.request_.endpoint} answered ${status}`
          if (!reported.has(key)) {
            reported.add(key)
            log(key)
          }
          return drop(item, 'rejected', status)
        }
      }
      drop(item, 'closed')
    } catch (error) {
      log('transport failed', error)
      drop(item, 'internal_error')
    } finally {
      active--
      pump()
      waiters.check_()
    }
  }

  return {
    send(request) {
      // A throw (a request without a body, say) rejects the executor's promise: it is dropped.
      return new Promise<TransportResult>((resolve) => {
        const item: Item = {
          request_: request,
          // The body's UTF-8 size (its length where TextEncoder is missing).
          bytes_:
            typeof TextEncoder === 'undefined'
              ? request.body.length
              : new TextEncoder().encode(request.body).length,
          resolve_: resolve,
          attempt_: 0,
        }
        // A closed transport drops it as closed, full or not (the pump does).
        if (!buffer.add_(item) && !closed) {
          log('queue full')
          return drop(item, 'queue_full')
        }
        queue.push(item)
        pump()
      }).catch(() => dropped('internal_error'))
    },
    flush(timeoutMs = 5000, flushOptions) {
      // Urgent: every queued request starts now, past the concurrency limit.
      if (flushOptions?.urgent) pump(Infinity)
      return waiters.wait_(timeoutMs).then(waiters.take_)
    },
    async close(timeoutMs = 5000) {
      await waiters.wait_(timeoutMs)
      closed = true
      pump()
      waits.cancel_()
      return waiters.wait_(1000).then(waiters.take_)
    },
  }
}
