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
 * The port webhook and Slack deliveries leave through (the host's network I/O; the reference
 * server's is `apps/server/src/alerts-webhook.ts`). Posts one webhook; resolves the receiver's
 * answer whatever its status, rejects on a connection failure or timeout (the rejection's message,
 * with its cause, is the attempt's recorded error). Redirects are never followed.
 */
export type WebhookSend = (request: WebhookRequest) => Promise<WebhookAnswer>
