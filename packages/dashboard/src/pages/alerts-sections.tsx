/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { AlertsApi } from '@tis/ingest'
import type {
  AlertChannel,
  AlertChannelList,
  AlertDelivery,
  AlertDeliveryPage,
  AlertRule,
  AlertRuleList,
} from '@tis/schema'
import type { Session } from '../context'
import { ok } from '../engine-client'
import type { Html } from '../layout'
import { AlertChannelsSection } from './alert-channels-section'
import { AlertDeliveriesSection, DELIVERY_LOG_SIZE } from './alert-deliveries-section'
import { AlertRulesSection } from './alert-rules-section'
import type { SectionContext } from './settings-section-parts'

/** What the alerts sections of the settings page show. */
export interface AlertsData {
  readonly channels: readonly AlertChannel[]
  readonly rules: readonly AlertRule[]
  /** The latest {@link DELIVERY_LOG_SIZE}, newest first. */
  readonly deliveries: readonly AlertDelivery[]
}

/** Reads a project's channels, rules and latest deliveries as the signed-in user. */
export async function loadAlerts(
  session: Session,
  alerts: AlertsApi,
  params: { id: string },
): Promise<AlertsData> {
  const [channels, rules, log] = await Promise.all([
    session.call(alerts.listAlertChannels, { params }),
    session.call(alerts.listAlertRules, { params }),
    session.call(alerts.listAlertDeliveries, {
      params,
      query: { limit: String(DELIVERY_LOG_SIZE) },
    }),
  ])
  return {
    channels: ok<AlertChannelList>(channels).alert_channels,
    rules: ok<AlertRuleList>(rules).alert_rules,
    deliveries: ok<AlertDeliveryPage>(log).alert_deliveries,
  }
}

/** The channels, the rules and the delivery log, one section each. */
export function AlertsSections(props: { ctx: SectionContext; data: AlertsData }): Html {
  const { ctx, data } = props
  return (
    <>
      <AlertChannelsSection ctx={ctx} channels={data.channels} />
      <AlertRulesSection ctx={ctx} rules={data.rules} channels={data.channels} />
      <AlertDeliveriesSection ctx={ctx} deliveries={data.deliveries} />
    </>
  )
}
