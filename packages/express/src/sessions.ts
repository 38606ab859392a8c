import type { Client } from '@tis/sdk'
import { unrefTimeout } from '@tis/sdk'
import { currentRequest } from './context'

/** How a request ended, as a request-mode session. */
export type RequestOutcome = 'exited' | 'errored' | 'crashed'

/** How long request counts are gathered before they are sent as one aggregate. */
const FLUSH_MS = 60_000

type Counts = { started: string; did: string | undefined } & Partial<Record<RequestOutcome, number>>

/**
 * Switches `client` to request mode, as `@sentry/node` does for servers: its process session is
 * dropped unsent, and each request counts as a session of its minute and user instead. The
 * counts leave as one `sessions` aggregate every minute (an unref'd timer)
 * and on the client's `flush()` and `close()`; an error captured while a request is handled makes
 * its session `errored`. A middleware mounted twice (app and router)
 * counts each request once, by the first. Throws, before changing anything, for a client
 * without sessions (an older `@tis/sdk`).
 */
export function requestSessions(client: Client) {
  client.endSession(false)
  const buckets = new Map<string, Counts>()
  let timer: ReturnType<typeof setTimeout> | undefined
  const send = () => {
    clearTimeout(timer)
    timer = undefined
    if (!buckets.size) return
    client.captureSessions([...buckets.values()])
    buckets.clear()
  }
  const { flush, close, captureException } = client
  client.captureException = (error, options) => {
    const state = currentRequest()
    if (state) state.outcome ??= 'errored'
    return captureException(error, options)
  }
  client.flush = (timeoutMs, options) => {
    send()
    return flush(timeoutMs, options)
  }
  client.close = (timeoutMs) => {
    send()
    return close(timeoutMs)
  }
  return (outcome: RequestOutcome, did?: string) => {
    const now = Date.now()
    const started = new Date(now - (now % 60_000)).toISOString()
    const key = started + (did ?? '')
    // An undefined did is left out when the body is serialised.
    const counts = buckets.get(key) ?? { started, did }
    buckets.set(key, counts)
    counts[outcome] = (counts[outcome] ?? 0) + 1
    timer ??= unrefTimeout(send, FLUSH_MS)
  }
}
