import type { WebhookSend } from '@tis/ingest'

/**
 * A bare {@link WebhookSend} for tests whose deliveries only have to reach an `AlertReceiver`
 * (the dispatcher over a store): the global `fetch`, a 3xx answered rather than followed, the
 * request's timeout as an abort (recorded as fetch's own "The operation was aborted due to
 * timeout"). The server's sender, `apps/server/src/alerts-webhook.ts`, has tests of its own.
 */
export const testWebhookSend: WebhookSend = async ({ url, headers, body, timeoutMs }) => {
  const signal = AbortSignal.timeout(timeoutMs)
  const answer = await fetch(url, {
    method: 'POST',
    headers,
    body: new Uint8Array(body),
    redirect: 'manual',
    signal,
  })
  await answer.arrayBuffer()
  return { status: answer.status, retryAfter: answer.headers.get('retry-after') }
}
