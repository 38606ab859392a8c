import { addCounts, type DropCounts } from './counts'
import type { DebugLogger } from './logger'
import { SILENT } from './logger'
import { parseRetryAfter, unrefTimeout } from './timers'
import type {
  DropReason,
  Endpoint,
  FlushOptions,
  FlushResult,
  MakeRequest,
  RequestOutcome,
  Transport,
  TransportRequest,
  TransportResult,
} from './transport-types'

/** Queue and retry policy of {@link createTransport}. */
export interface TransportOptions {
  /** Most records queued or in flight; newer records are dropped (`queue_full`). @default 100 */
  readonly maxQueueSize?: number
  /** Most bytes of bodies queued or in flight; newer records are dropped. @default 1048576 */
  readonly maxQueueBytes?: number
  /** Requests in flight at once. @default 2 */
  readonly concurrency?: number
  /** Per-attempt timeout; a timed-out attempt counts as a network error. @default 10000 */
  readonly timeoutMs?: number
  /** Retries after a network error or a 5xx. @default 3 */
  readonly maxRetries?: number
  /** First backoff ceiling; doubles per retry, full jitter. @default 1000 */
  readonly backoffMs?: number
  /** Largest backoff ceiling. @default 30000 */
  readonly maxBackoffMs?: number
  /** Longest `Retry-After` worth waiting for; beyond it the endpoint's records are dropped. @default 60000 */
  readonly maxRateLimitWaitMs?: number
  /** Retry a 401 once with refreshed credentials (for token providers). @default false */
  readonly refreshOn401?: boolean
  /** Receives diagnostics. */
  readonly logger?: DebugLogger
}

interface Item {
  readonly request: TransportRequest
  readonly bytes: number
  readonly resolve: (result: TransportResult) => void
  attempt: number
  refreshed: boolean
  /** A batch: the queued records it carries (each settled by its own line's result). */
  members?: Item[]
  /** Rolled back once already (another line of its batch was invalid): not re-sent again. */
  resent?: boolean
  /** Its batch was too large for the server (413): it goes in a request of its own. */
  alone?: boolean
}

/** Most records, and body bytes (a keepalive request's budget), in one batch request. */
const BATCH_RECORDS = 100
const BATCH_BYTES = 60_000

const byteLength = (s: string) =>
  typeof TextEncoder === 'undefined' ? s.length : new TextEncoder().encode(s).length

/**
 * A transport that owns buffering and retry policy around a `makeRequest` function that only
 * does I/O: a bounded queue, limited concurrency, per-attempt timeouts, jittered exponential
 * backoff on network errors and 5xx, per-endpoint `Retry-After` on 429, no retry on other 4xx.
 */
export function createTransport(options: TransportOptions, makeRequest: MakeRequest): Transport {
  const maxSize = options.maxQueueSize ?? 100
  const maxBytes = options.maxQueueBytes ?? 1_048_576
  const concurrency = options.concurrency ?? 2
  const timeoutMs = options.timeoutMs ?? 10_000
  const maxRetries = options.maxRetries ?? 3
  const backoffMs = options.backoffMs ?? 1000
  const maxBackoffMs = options.maxBackoffMs ?? 30_000
  const maxWait = options.maxRateLimitWaitMs ?? 60_000
  const log = options.logger ?? SILENT

  const queue: Item[] = []
  const blockedUntil: Partial<Record<Endpoint, number>> = {}
  const reported = new Set<string>()
  const sleepers = new Set<() => void>()
  const inFlight = new Set<AbortController>()
  const idleWaiters = new Set<() => void>()
  let active = 0
  let bytes = 0
  let sent = 0
  let duplicates = 0
  let dropped: DropCounts = {}
  let closed = false
  let urgent = false
  // Set when the server answers a batch with 404/405/415 (an older server): send one by one.
  let noBatch = false
  let wake: ReturnType<typeof setTimeout> | undefined
  let wakeAt = Number.POSITIVE_INFINITY

  function finish(item: Item, result: TransportResult) {
    if (item.members) {
      for (const m of item.members) finish(m, result)
      return
    }
    bytes -= item.bytes
    if (result.status === 'dropped') dropped = addCounts(dropped, { [result.reason]: 1 })
    else {
      sent++
      if (result.duplicate) duplicates++
    }
    item.resolve(result)
  }

  function drop(item: Item, reason: DropReason, statusCode?: number) {
    finish(item, { status: 'dropped', reason, ...(statusCode ? { statusCode } : {}) })
  }

  function checkIdle() {
    if (queue.length > 0 || active > 0) return
    for (const done of idleWaiters) done()
  }

  function pump() {
    const now = Date.now()
    let nextWake = Number.POSITIVE_INFINITY
    for (let i = 0; i < queue.length && (urgent || active < concurrency); ) {
      const item = queue[i]!
      const until = blockedUntil[item.request.endpoint] ?? 0
      if (until > now) {
        nextWake = Math.min(nextWake, until)
        i++
        continue
      }
      queue.splice(i, 1)
      active++
      void run(batchOf(item))
    }
    if (nextWake < wakeAt) {
      clearTimeout(wake)
      wakeAt = nextWake
      wake = unrefTimeout(() => {
        wakeAt = Number.POSITIVE_INFINITY
        pump()
      }, nextWake - now)
    }
  }

  /**
   * The item with the `ingest_events` records queued behind it, as one batch request when there
   * are any (and the server has not refused batches).
   */
  function batchOf(item: Item): Item {
    const alone = (i: Item) => i.alone || i.members || i.request.endpoint !== 'ingest_events'
    if (noBatch || alone(item)) return item
    const members = [item]
    let size = item.bytes
    for (let i = 0; i < queue.length && members.length < BATCH_RECORDS; ) {
      const next = queue[i]!
      if (!alone(next) && size + next.bytes < BATCH_BYTES) {
        members.push(queue.splice(i, 1)[0]!)
        size += next.bytes + 1
      } else i++
    }
    return members.length === 1 ? item : batch(members)
  }

  /** One batch request carrying `members`. */
  function batch(members: Item[]): Item {
    return {
      request: {
        endpoint: 'ingest_events',
        batch: true,
        body: members.map((m) => m.request.body).join('\n'),
      },
      bytes: members.reduce((n, m) => n + m.bytes + 1, 0),
      resolve() {},
      attempt: 0,
      refreshed: false,
      members,
    }
  }

  function sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const done = () => {
        sleepers.delete(done)
        clearTimeout(timer)
        resolve()
      }
      const timer = unrefTimeout(done, ms)
      sleepers.add(done)
    })
  }

  async function attempt(item: Item): Promise<RequestOutcome | 'network'> {
    const controller = new AbortController()
    const timer = unrefTimeout(() => controller.abort(), timeoutMs)
    inFlight.add(controller)
    try {
      // The race also ends attempts that ignore the signal (a hanging token provider, say).
      const outcome = await Promise.race([
        makeRequest(item.request, controller.signal, item.refreshed),
        new Promise<never>((_, reject) => {
          controller.signal.addEventListener('abort', () => reject(new Error('timeout')))
        }),
      ])
      if (outcome.status === 429) {
        const seconds = parseRetryAfter(outcome.retryAfter, 60)
        blockedUntil[item.request.endpoint] = Date.now() + seconds * 1000
      }
      return outcome
    } catch (error) {
      log('request failed', error)
      return 'network'
    } finally {
      inFlight.delete(controller)
      clearTimeout(timer)
    }
  }

  function rateLimited(item: Item): 'wait' | 'drop' {
    const endpoint = item.request.endpoint
    const wait = (blockedUntil[endpoint] ?? 0) - Date.now()
    if (wait <= maxWait) return 'wait'
    log(`${endpoint} rate limited: dropping`)
    for (let i = queue.length - 1; i >= 0; i--) {
      if (queue[i]!.request.endpoint === endpoint) drop(queue.splice(i, 1)[0]!, 'rate_limited')
    }
    return 'drop'
  }

  async function run(item: Item) {
    try {
      for (;;) {
        if (closed) return drop(item, 'closed')
        const outcome = await attempt(item)
        const status = outcome === 'network' ? outcome : outcome.status
        const members = item.members
        if (members && status !== 'network' && [404, 405, 413, 415].includes(status)) {
          // No batch endpoint (from now on), or over its caps or rate-limit window (413, these
          // records): one record per request.
          noBatch ||= status !== 413
          for (const m of members) m.alone = true
          queue.unshift(...members)
          return
        }
        if (status === 'network' || status >= 500) {
          if (closed) return drop(item, 'closed')
          if (item.attempt >= maxRetries) {
            return drop(item, status === 'network' ? 'network_error' : 'server_error')
          }
          item.attempt++
          const ceiling = Math.min(maxBackoffMs, backoffMs * 2 ** (item.attempt - 1))
          await sleep(Math.random() * ceiling)
          continue
        }
        const lines = outcome === 'network' ? undefined : outcome.lines
        // A single record's 200 is a duplicate; a batch's 202 says so line by line.
        const ok = (m: Item, duplicate?: boolean) =>
          finish(m, { status: 'sent', statusCode: status, ...(duplicate ? { duplicate } : {}) })
        if (status < 300) {
          if (!members) return ok(item, status === 200)
          for (const [i, m] of members.entries()) ok(m, lines?.[i]?.duplicate)
          return
        }
        if (members && status === 422 && lines) {
          // All or nothing: the invalid lines are dropped, the valid ones sent again, once.
          const back: Item[] = []
          members.forEach((m, i) => {
            const line = lines[i]
            if (line?.status === 'accepted') ok(m, line.duplicate)
            else if (line?.status === 'rolled_back' && !m.resent) back.push(m)
            else {
              log('batch line rejected', line?.errors)
              drop(m, 'rejected', 422)
            }
          })
          for (const m of back) m.resent = true
          if (back.length > 0) queue.unshift(batch(back))
          return
        }
        if (status === 429) {
          // Waiting is bounded too: a record 429'd more than maxRetries times is dropped.
          if (rateLimited(item) === 'drop') return drop(item, 'rate_limited', 429)
          for (const m of (members ?? [item]).reverse()) {
            if (m.attempt++ >= maxRetries) drop(m, 'rate_limited', 429)
            else queue.unshift(m)
          }
          return
        }
        if (status === 401 && options.refreshOn401 && !item.refreshed) {
          item.refreshed = true
          continue
        }
        const key = `${item.request.endpoint} ${status}`
        if (!reported.has(key)) {
          reported.add(key)
          log(`${item.request.endpoint} answered ${status} (not retried)`)
        }
        return drop(item, 'rejected', status)
      }
    } catch (error) {
      log('transport error', error)
      drop(item, 'internal_error')
    } finally {
      active--
      pump()
      checkIdle()
    }
  }

  function send(request: TransportRequest): Promise<TransportResult> {
    return new Promise((resolve) => {
      try {
        const size = byteLength(request.body)
        const item: Item = { request, bytes: size, resolve, attempt: 0, refreshed: false }
        bytes += size
        if (closed) return drop(item, 'closed')
        if (queue.length + active >= maxSize || bytes > maxBytes) {
          log('queue full')
          return drop(item, 'queue_full')
        }
        if ((blockedUntil[request.endpoint] ?? 0) - Date.now() > maxWait) {
          return drop(item, 'rate_limited')
        }
        queue.push(item)
        pump()
      } catch {
        resolve({ status: 'dropped', reason: 'internal_error' })
      }
    })
  }

  function take(): FlushResult {
    const result = { sent, duplicates, dropped, pending: queue.length + active }
    sent = duplicates = 0
    dropped = {}
    return result
  }

  function flush(timeout = 5000, flushOptions: FlushOptions = {}): Promise<FlushResult> {
    if (flushOptions.urgent) {
      urgent = true
      pump()
      urgent = false
    }
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined
      const done = () => {
        idleWaiters.delete(done)
        if (timer !== undefined) clearTimeout(timer)
        resolve(take())
      }
      idleWaiters.add(done)
      // A plain (ref'd) timer: a caller who asked to flush wants the process to wait that long.
      timer = setTimeout(done, timeout)
      checkIdle()
    })
  }

  async function close(timeout?: number): Promise<FlushResult> {
    const flushed = await flush(timeout)
    closed = true
    for (const item of queue.splice(0)) drop(item, 'closed')
    for (const wakeSleeper of sleepers) wakeSleeper()
    for (const controller of inFlight) controller.abort()
    const rest = await flush(1000)
    return {
      sent: flushed.sent + rest.sent,
      duplicates: flushed.duplicates + rest.duplicates,
      dropped: addCounts(flushed.dropped, rest.dropped),
      pending: rest.pending,
    }
  }

  return { send, flush, close }
}
