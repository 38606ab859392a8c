import type { Readiness, ReadinessUnavailable } from '@tis/schema'
import { type EngineResponse, json } from './http'

/** Options of {@link createReadinessCheck}. */
export interface ReadinessOptions {
  /**
   * A trivial query against the primary store (`SELECT 1`); resolves when it answered. Without
   * it the store is taken as ready.
   */
  readonly ping?: () => Promise<void>
  /**
   * How long a ping may take before the store counts as unreachable, in ms.
   * @default 2000
   */
  readonly timeoutMs?: number
  /**
   * How long an answer is reused, in ms, so that a flood of probes costs one query per period.
   * @default 1000
   */
  readonly cacheMs?: number
  /** The `Retry-After` of an unready answer, in seconds. @default 5 */
  readonly retryAfterSeconds?: number
  /** @default Date.now */
  readonly clock?: () => number
  /** Told when the store stops answering (once per outage, not once per probe). */
  readonly onUnready?: (error: unknown) => void
}

/** Default of {@link ReadinessOptions.timeoutMs}. */
export const READINESS_TIMEOUT_MS = 2000
/** Default of {@link ReadinessOptions.cacheMs}. */
export const READINESS_CACHE_MS = 1000

const HEADERS = { 'Cache-Control': 'no-store' }

/** A ping that took longer than the readiness timeout. */
class PingTimeout extends Error {
  constructor(ms: number) {
    super(`the primary store did not answer within ${ms} ms`)
    this.name = 'PingTimeout'
  }
}

/**
 * The readiness check of `GET /health/ready`: 200 `{status: 'ok', store: 'ok'}` when the store
 * answers a ping within the timeout, else 503 `{status: 'unavailable', store: 'unreachable',
 * message}` with `Retry-After`. Never rejects and never waits longer than the timeout.
 *
 * Concurrent probes share one check, an answer is reused for `cacheMs`, and at most one ping is
 * in flight: a ping still pending when the next check starts is awaited again (with a fresh
 * timeout) rather than joined by another, so a hung database does not collect pings.
 */
export function createReadinessCheck(options: ReadinessOptions): () => Promise<EngineResponse> {
  const { ping } = options
  const timeoutMs = options.timeoutMs ?? READINESS_TIMEOUT_MS
  const cacheMs = options.cacheMs ?? READINESS_CACHE_MS
  const clock = options.clock ?? Date.now
  const retryAfter = String(options.retryAfterSeconds ?? 5)
  let cached: { response: EngineResponse; at: number } | undefined
  let checking: Promise<EngineResponse> | undefined
  let pinging: Promise<void> | undefined
  let ready = true

  const readyResponse = json(200, { status: 'ok', store: 'ok' } satisfies Readiness, HEADERS)

  async function check(): Promise<EngineResponse> {
    if (!ping) return readyResponse
    if (!pinging) {
      // Through `then` so that a ping which throws synchronously counts as a failed ping.
      pinging = Promise.resolve()
        .then(ping)
        .finally(() => {
          pinging = undefined
        })
    }
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PingTimeout(timeoutMs)), timeoutMs)
    })
    try {
      await Promise.race([pinging, timeout])
      ready = true
      return readyResponse
    } catch (error) {
      if (ready) options.onUnready?.(error)
      ready = false
      const message =
        error instanceof PingTimeout
          ? error.message
          : 'the primary store failed a trivial query (see the server log)'
      return json(
        503,
        { status: 'unavailable', store: 'unreachable', message } satisfies ReadinessUnavailable,
        { ...HEADERS, 'Retry-After': retryAfter },
      )
    } finally {
      clearTimeout(timer)
    }
  }

  return () => {
    if (cached && clock() - cached.at < cacheMs) return Promise.resolve(cached.response)
    if (!checking) {
      checking = check().then((response) => {
        cached = { response, at: clock() }
        checking = undefined
        return response
      })
    }
    return checking
  }
}
