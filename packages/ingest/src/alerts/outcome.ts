/** What one send did, before the retry policy: delivered, worth retrying, or final. */
export type SendResult =
  | { readonly kind: 'delivered'; readonly responseCode: number | null }
  | {
      readonly kind: 'retry' | 'fail'
      readonly responseCode: number | null
      readonly error: string
      /** The receiver's `Retry-After`, as sent. */
      readonly retryAfter?: string | null
    }

/** Longest `last_error` stored, in characters. */
export const MAX_ERROR_LENGTH = 500

/**
 * Classifies a receiver's HTTP answer: 2xx is delivered; 410 Gone fails at once (the receiver
 * says the endpoint is gone for good); every other status is retried — 3xx included, since
 * redirects are never followed (one could point at a private address), and 4xx too, as
 * GitHub, Stripe and Sentry do: a receiver misconfigured for a while still gets its messages.
 */
export function httpResult(status: number, retryAfter: string | null): SendResult {
  if (status >= 200 && status < 300) return { kind: 'delivered', responseCode: status }
  if (status === 410)
    return { kind: 'fail', responseCode: status, error: 'HTTP 410 Gone: the receiver is gone' }
  const error =
    status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`
  return { kind: 'retry', responseCode: status, error, retryAfter }
}

/** The message of a thrown send failure (a timeout, a refused connection), with its cause. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, MAX_ERROR_LENGTH)
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return `${error.message}${cause}`.slice(0, MAX_ERROR_LENGTH)
}
