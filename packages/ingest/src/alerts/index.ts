// Alerts (issue 21): the configuration API and the check of where a channel may point.

export { type AlertsApi, type AlertsApiOptions, createAlertsApi } from './config-api'
export { alertChannelJson, alertDeliveryJson, alertRuleJson } from './json'
export {
  checkAlertTarget,
  type HostResolver,
  isIpLiteral,
  isPrivateAddress,
  type TargetCheck,
  type TargetPolicy,
} from './targets'
