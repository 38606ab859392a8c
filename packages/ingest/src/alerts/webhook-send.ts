/** One POST of a webhook or Slack delivery. */
export interface WebhookRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  /** The body bytes, exactly as signed. */
  readonly body: Uint8Array
  /** Abort when the receiver has not answered within this many ms. */
  readonly timeoutMs: number
}

/** A receiver's answer: its status and `Retry-After` header. */
export interface WebhookAnswer {
  readonly status: number
  readonly retryAfter: string | null
}

/**
 * Posts one webhook; resolves the receiver's answer whatever its status, rejects on a
 * connection failure or timeout. Redirects are never followed.
 */
export type WebhookSend = (request: WebhookRequest) => Promise<WebhookAnswer>

/**
 * A {@link WebhookSend} over the Fetch API (Node's global `fetch` by default):
 * `redirect: 'manual'` so a 3xx is an answer, not a hop (to a private address, say), and an
 * `AbortSignal.timeout`. The response body is discarded unread.
 */
export function createFetchWebhookSend(fetchFn: typeof fetch = globalThis.fetch): WebhookSend {
  return async (request) => {
    let response: Response
    try {
      response = await fetchFn(request.url, {
        method: 'POST',
        headers: request.headers,
        // Bytes we made (never a shared buffer), whatever lib types `fetch` is checked with.
        body: request.body as Uint8Array<ArrayBuffer>,
        redirect: 'manual',
        signal: AbortSignal.timeout(request.timeoutMs),
      })
    } catch (error) {
      if (
        error instanceof Error &&
        (error.name === 'TimeoutError' || error.name === 'AbortError')
      ) {
        throw new Error(`no answer within ${request.timeoutMs} ms`)
      }
      throw error
    }
    await response.body?.cancel().catch(() => {})
    return { status: response.status, retryAfter: response.headers.get('retry-after') }
  }
}
