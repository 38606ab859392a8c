import type { ClaimedAlertDelivery } from '../ports/alerts'
import { alertEmail, type Mailer } from './email'
import { httpResult, type SendResult } from './outcome'
import { jsonBytes, webhookBytes } from './render'
import { SIGNATURE_HEADER, signatureOf } from './sign'
import { slackMessage } from './slack'
import type { WebhookSend } from './webhook-send'

/** What sending needs beyond the delivery. */
export interface SendContext {
  readonly send: { readonly webhook?: WebhookSend | null; readonly email?: Mailer | null }
  readonly timeoutMs: number
  readonly userAgent: string
  readonly allowTarget?: (url: string) => Promise<string | null>
}

const CHANNEL_DELETED: SendResult = { kind: 'fail', responseCode: null, error: 'channel deleted' }

/** A webhook or Slack attempt of a host that passed no sender: retried, with the reason. */
const NO_WEBHOOK_SENDER: SendResult = {
  kind: 'retry',
  responseCode: null,
  error: 'no webhook sender configured (adapters.webhook)',
}

/** The request of a webhook or Slack delivery: the body serialised once, signed when keyed. */
function httpRequest(d: ClaimedAlertDelivery, userAgent: string) {
  const webhook = d.channelType === 'webhook'
  const body = webhook ? webhookBytes(d) : jsonBytes(slackMessage(d))
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': userAgent,
  }
  if (webhook) {
    headers['X-Tis-Delivery'] = d.id
    headers['X-Tis-Event'] = d.trigger
    if (d.secret !== null) headers[SIGNATURE_HEADER] = signatureOf(body, d.secret)
  }
  return { headers, body }
}

/** Sends one claimed delivery on its channel and classifies what happened. */
export async function sendDelivery(
  d: ClaimedAlertDelivery,
  context: SendContext,
): Promise<SendResult> {
  if (d.channelId === null) return CHANNEL_DELETED
  switch (d.channelType) {
    case 'webhook':
    case 'slack': {
      if (d.url === null) return CHANNEL_DELETED
      const send = context.send.webhook
      if (!send) return NO_WEBHOOK_SENDER
      const refusal = context.allowTarget ? await context.allowTarget(d.url) : null
      if (refusal !== null) return { kind: 'retry', responseCode: null, error: refusal }
      const answer = await send({
        url: d.url,
        ...httpRequest(d, context.userAgent),
        timeoutMs: context.timeoutMs,
      })
      return httpResult(answer.status, answer.retryAfter)
    }
    case 'email': {
      if (d.to === null || d.to.length === 0) return CHANNEL_DELETED
      const mailer = context.send.email
      if (!mailer) {
        return {
          kind: 'retry',
          responseCode: null,
          error: 'email is not configured (SERVICE_SMTP_*)',
        }
      }
      await mailer.send(alertEmail(d, d.to))
      return { kind: 'delivered', responseCode: null }
    }
  }
}
