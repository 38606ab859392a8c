import type { WebhookSend } from '@tis/ingest'

/**
 * The server's {@link WebhookSend}: posts webhook and Slack deliveries over the Fetch API
 * (Node's global `fetch` by default) with `redirect: 'manual'`, so a 3xx is an answer, not a hop
 * (to a private address, say), and an `AbortSignal.timeout`. The response body is discarded
 * unread.
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
