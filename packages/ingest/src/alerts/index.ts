// Alerts (issue 21): the configuration API, the check of where a channel may point, and the
// delivery of notifications (dispatch, rendering, signing, retry schedule).

export {
  backoffMs,
  RETRY_CAP_SECONDS,
  RETRY_DELAYS_SECONDS,
  RETRY_JITTER,
  RETRY_WINDOW_MS,
  retryAfterMs,
} from './backoff'
export { type AlertsApi, type AlertsApiOptions, createAlertsApi } from './config-api'
export {
  type AlertDispatcher,
  type AlertDispatcherOptions,
  type AlertDispatchRound,
  createAlertDispatcher,
} from './dispatch'
export { type AlertEmail, alertEmail, type Mailer } from './email'
export { alertChannelJson, alertDeliveryJson, alertRuleJson } from './json'
export { alertText } from './message'
export { type WebhookBody, webhookBody } from './render'
export { SIGNATURE_HEADER, signatureOf } from './sign'
export { escapeSlack, type SlackMessage, slackMessage } from './slack'
export {
  checkAlertTarget,
  type HostResolver,
  isIpLiteral,
  isPrivateAddress,
  type TargetCheck,
  type TargetPolicy,
} from './targets'
export {
  createFetchWebhookSend,
  type WebhookAnswer,
  type WebhookRequest,
  type WebhookSend,
} from './webhook-send'
