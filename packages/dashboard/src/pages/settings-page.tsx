/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { Member as MemberJson, SourceSettings as SourceSettingsJson } from '@tis/schema'
import type { DashboardContext, Deps } from '../context'
import { errorMessages, ok } from '../engine-client'
import { loadProject, renderPage } from '../render'
import { AlertsSections, loadAlerts } from './alerts-sections'
import { type ApiKeyJson, ApiKeysSection } from './api-keys-section'
import { type DataScrubbingJson, DataScrubbingSection } from './data-scrubbing-section'
import { MembersSection } from './members-section'
import { type MobileTokenJson, MobileTokensSection } from './mobile-tokens-section'
import { ProjectSection } from './project-section'
import { type RateLimitJson, RateLimitsSection } from './rate-limits-section'
import { type RetentionJson, RetentionSection } from './retention-section'
import type { Outcome, SectionContext } from './settings-section-parts'
import { type ArtifactBundleJson, SourceMapsSection } from './source-maps-section'
import { SourceSettingsSection } from './source-settings'

/**
 * The settings page of one project: its facts, API keys, members, mobile tokens, rate limits,
 * retention and disk use, data scrubbing, source settings, uploaded source maps and alerts
 * (channels, rules, the delivery log), with `outcome` (a form's notice or refusal) shown in its
 * section.
 */
export async function settingsPage(c: DashboardContext, deps: Deps, outcome: Outcome) {
  const session = c.get('session')
  const project = await loadProject(c, deps)
  const m = deps.engine.management
  const params = { id: project.id }
  const alerts = deps.engine.alerts
  const maps = deps.engine.sourceMaps
  const [keys, mobile, limits, people, source, kept, scrubbing, alertsData, listed] =
    await Promise.all([
      session.call(m.listApiKeys, { params }),
      session.call(m.listMobileTokens, { params }),
      session.call(m.getRateLimits, { params }),
      session.call(m.listMembers, { params }),
      session.call(deps.engine.sourceSettings.getSourceSettings, { params }),
      session.call(m.getRetention, { params }),
      session.call(m.getDataScrubbing, { params }),
      loadAlerts(session, alerts, params),
      session.call(maps.listArtifactBundles, { params }),
    ])
  const { api_keys } = ok<{ api_keys: ApiKeyJson[] }>(keys)
  const { mobile_tokens } = ok<{ mobile_tokens: MobileTokenJson[] }>(mobile)
  const { rate_limit } = ok<{ rate_limit: RateLimitJson }>(limits)
  const { retention } = ok<{ retention: RetentionJson }>(kept)
  const { data_scrubbing } = ok<{ data_scrubbing: DataScrubbingJson }>(scrubbing)
  const { members } = ok<{ members: MemberJson[] }>(people)
  const { source_settings } = ok<{ source_settings: SourceSettingsJson }>(source)
  // Owners and administrators archive, restore and add members; the API refuses others (403).
  const manages =
    session.admin ||
    members.some((p) => p.role === 'owner' && p.email.toLowerCase() === session.email.toLowerCase())
  const bundles =
    listed.status === 200
      ? (listed.body as { artifact_bundles: ArtifactBundleJson[] }).artifact_bundles
      : { error: errorMessages(listed).join('; ') }
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
        <RetentionSection ctx={ctx} retention={retention} manages={manages} />
        <DataScrubbingSection ctx={ctx} settings={data_scrubbing} manages={manages} />
        <SourceSettingsSection ctx={ctx} settings={source_settings} manages={manages} />
        {bundles && (
          <SourceMapsSection
            ctx={ctx}
            bundles={bundles}
            manages={manages}
            origin={new URL(c.req.url).origin}
            projectId={project.id}
          />
        )}
        <AlertsSections ctx={ctx} data={alertsData} />
      </>
    ),
  })
}
