import { countDrop, type DropCounts } from './counts'
import { generateUuid } from './ids'
import type { DebugLogger } from './logger'
import type { ClientOptions, Payload } from './options'
import { normalize, safeStringify } from './serialize'
import type { DropReason, Endpoint, FlushOptions, FlushResult, Transport } from './transport-types'

/** The capture pipeline of {@link createRecorder}. */
export interface Recorder {
  /**
   * Builds a record, gives it a fresh `event_id` (first, so a field of `build`'s can replace
   * it), filters it (enabled, `sampleRate` and `beforeSend` for events) and hands it to the
   * transport. Returns the id; never throws.
   */
  record_(endpoint: Endpoint, key: string, build: () => Payload): string
  /** Filters and hands `{ [key]: payload }` to the transport as it is (no `event_id`); never throws. */
  enqueue_(endpoint: Endpoint, key: string, payload: Payload): void
  /**
   * The transport's flush (with `close`, its close, where it has one), with the records the
   * client dropped itself added to its counts; never rejects.
   */
  flush_(timeoutMs?: number, options?: FlushOptions, close?: boolean): Promise<FlushResult>
  /** Records handed to the transport so far. */
  captured_(): number
  /** Turns every later capture into a no-op (counted as `disabled`). */
  disable_(): void
}

/** The path of every record from a capture to the transport. */
export function createRecorder(
  options: ClientOptions,
  transport: Transport,
  log: DebugLogger,
): Recorder {
  // User data (context, deployment extras) gets the configured depth below its own root; the
  // envelope pass only makes the whole record safe, so SDK-built nesting (cause chains) survives.
  const limits = { ...options.normalize, maxDepth: 16, maxObjects: 1e4 }
  let enabled = options.enabled !== false
  let drops: DropCounts = {}
  let captured = 0
  if (!options.baseUrl || !(options.apiKey || options.tokenProvider)) {
    log('no baseUrl or credentials: client disabled')
    enabled = false
  }
  const count = (reason: DropReason) => countDrop(drops, reason)

  function enqueue(endpoint: Endpoint, key: string, payload: Payload) {
    if (!enabled) return count('disabled')
    let record = normalize(payload, limits) as Payload
    if (endpoint === 'ingest_events') {
      // Never true at the default rate of 1, as Math.random() < 1.
      if (Math.random() >= (options.sampleRate ?? 1)) return count('sampled')
      if (options.beforeSend) {
        try {
          const edited = options.beforeSend(record)
          if (!edited) return count('before_send')
          record = edited
        } catch (error) {
          log('beforeSend failed', error)
          return count('before_send')
        }
      }
    }
    captured++
    const body = safeStringify({ [key]: record }, limits)
    // A custom transport may break its promise; the host must not see an unhandled rejection.
    Promise.resolve(transport.send({ endpoint, body })).catch((error: unknown) => {
      log('transport rejected', error)
    })
  }

  // A throwing build, or a custom transport that throws instead of rejecting, costs the record.
  function guarded(endpoint: Endpoint, key: string, build: () => Payload) {
    try {
      enqueue(endpoint, key, build())
    } catch (error) {
      log('capture failed', error)
      count('internal_error')
    }
  }

  return {
    record_(endpoint, key, build) {
      const id = generateUuid()
      guarded(endpoint, key, () => ({ event_id: id, ...build() }))
      return id
    },
    async flush_(timeoutMs, flushOptions, close) {
      let result: FlushResult = { sent: 0, duplicates: 0, dropped: {}, pending: 0 }
      try {
        result = await (close && transport.close
          ? transport.close(timeoutMs)
          : transport.flush(timeoutMs, flushOptions))
      } catch (error) {
        log('flush failed', error)
      }
      const dropped = drops
      drops = {}
      for (const reason in result.dropped)
        countDrop(dropped, reason as DropReason, result.dropped[reason as DropReason])
      return { ...result, dropped }
    },
    enqueue_: (endpoint, key, payload) => guarded(endpoint, key, () => payload),
    captured_: () => captured,
    disable_() {
      enabled = false
    },
  }
}
