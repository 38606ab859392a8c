/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type {
  AlertChannelList,
  AlertDeliveryPage,
  AlertRuleList,
  Member as MemberJson,
  SourceSettings as SourceSettingsJson,
} from '@tis/schema'
import type { DashboardContext, Deps } from '../context'
import { ok } from '../engine-client'
import { loadProject, renderPage } from '../render'
import { AlertChannelsSection } from './alert-channels-section'
import { AlertDeliveriesSection, DELIVERY_LOG_SIZE } from './alert-deliveries-section'
import { AlertRulesSection } from './alert-rules-section'
import { type ApiKeyJson, ApiKeysSection } from './api-keys-section'
import { MembersSection } from './members-section'
import { type MobileTokenJson, MobileTokensSection } from './mobile-tokens-section'
import { ProjectSection } from './project-section'
import { type RateLimitJson, RateLimitsSection } from './rate-limits-section'
import type { Outcome, SectionContext } from './settings-section-parts'
import { SourceSettingsSection } from './source-settings'

/**
 * The settings page of one project: its facts, API keys, members, mobile tokens, rate limits,
 * source settings and alerts (channels, rules, the delivery log), with `outcome` (a form's notice or refusal) shown in its section.
 */
export async function settingsPage(c: DashboardContext, deps: Deps, outcome: Outcome) {
  const session = c.get('session')
  const project = await loadProject(c, deps)
  const m = deps.engine.management
  const params = { id: project.id }
  const alerts = deps.engine.alerts
  const [keys, mobile, limits, people, source, channels, rules, log] = await Promise.all([
    session.call(m.listApiKeys, { params }),
    session.call(m.listMobileTokens, { params }),
    session.call(m.getRateLimits, { params }),
    session.call(m.listMembers, { params }),
    session.call(deps.engine.sourceSettings.getSourceSettings, { params }),
    session.call(alerts.listAlertChannels, { params }),
    session.call(alerts.listAlertRules, { params }),
    session.call(alerts.listAlertDeliveries, {
      params,
      query: { limit: String(DELIVERY_LOG_SIZE) },
    }),
  ])
  const { api_keys } = ok<{ api_keys: ApiKeyJson[] }>(keys)
  const { mobile_tokens } = ok<{ mobile_tokens: MobileTokenJson[] }>(mobile)
  const { rate_limit } = ok<{ rate_limit: RateLimitJson }>(limits)
  const { members } = ok<{ members: MemberJson[] }>(people)
  const { source_settings } = ok<{ source_settings: SourceSettingsJson }>(source)
  const { alert_channels } = ok<AlertChannelList>(channels)
  const { alert_rules } = ok<AlertRuleList>(rules)
  const { alert_deliveries } = ok<AlertDeliveryPage>(log)
  // Owners and administrators archive, restore and add members; the API refuses others (403).
  const manages =
    session.admin ||
    members.some((p) => p.role === 'owner' && p.email.toLowerCase() === session.email.toLowerCase())
  const path = `${deps.base}/projects/${project.id}/settings`
  const now = deps.now()
  const ctx: SectionContext = { path, csrf: session.csrf, now, outcome }
  return renderPage(c, deps, {
    title: `Settings · ${project.name}`,
    status: outcome.status ?? 200,
    project: { id: project.id, name: project.name, tab: 'settings' },
    body: (
      <>
        <h1>Settings</h1>
        {!outcome.section && outcome.notice && (
          <p class="notice" role="status">
            {outcome.notice}
          </p>
        )}
        {!outcome.section && outcome.error && (
          <p class="alert" role="alert">
            {outcome.error}
          </p>
        )}
        <ProjectSection ctx={ctx} project={project} manages={manages} />
        <ApiKeysSection ctx={ctx} keys={api_keys} />
        <MembersSection ctx={ctx} members={members} manages={manages} />
        <MobileTokensSection ctx={ctx} tokens={mobile_tokens} />
        <RateLimitsSection ctx={ctx} limits={rate_limit} admin={session.admin} />
        <SourceSettingsSection ctx={ctx} settings={source_settings} manages={manages} />
        <AlertChannelsSection ctx={ctx} channels={alert_channels} />
        <AlertRulesSection ctx={ctx} rules={alert_rules} channels={alert_channels} />
        <AlertDeliveriesSection ctx={ctx} deliveries={alert_deliveries} />
      </>
    ),
  })
}
