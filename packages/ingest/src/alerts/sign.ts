import { createHmac } from 'node:crypto'

/** The name of the signature header of a webhook delivery. */
export const SIGNATURE_HEADER = 'X-Tis-Signature'

/**
 * The `X-Tis-Signature` value of a webhook body: `sha256=` and the hex HMAC-SHA256 of the raw
 * body bytes, keyed with the channel's secret (as UTF-8 text).
 */
export function signatureOf(body: Uint8Array, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
}
