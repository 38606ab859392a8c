/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { DashboardApp, DashboardContext, Deps } from '../context'
import { errorMessages, ok } from '../engine-client'
import { Badge, CsrfField } from '../layout'
import { loadProject, renderPage } from '../render'
import type { MemberJson, SourceSettingsJson } from '../types'
import {
  type ApiKeyJson,
  LIMIT_FIELDS,
  MembersSection,
  type MobileTokenJson,
  MobileTokensSection,
  PostButton,
  type RateLimitJson,
  RateLimitsSection,
  type SectionContext,
  When,
} from './settings-sections'
import { SourceSettingsSection, sourceSettingsBody } from './source-settings'

const DONE: Record<string, string> = {
  'key-revoked': 'The API key was revoked.',
  archived: 'The project was archived: its API keys stop working.',
  restored: 'The project was restored. Create a new API key to send events again.',
  'member-added': 'The member was added.',
  'mobile-token-revoked': 'The mobile token was revoked.',
  'limits-saved': 'The rate limits were saved.',
  'source-saved': 'The source code settings were saved.',
}

/** What a settings page shows besides the project's data. */
interface Outcome {
  readonly notice?: string
  readonly error?: string
  /** A newly created API key's token: shown once, never again. */
  readonly token?: string
  readonly status?: number
}

async function settingsPage(c: DashboardContext, deps: Deps, outcome: Outcome) {
  const session = c.get('session')
  const project = await loadProject(c, deps)
  const m = deps.engine.management
  const params = { id: project.id }
  const [keys, mobile, limits, people, source] = await Promise.all([
    session.call(m.listApiKeys, { params }),
    session.call(m.listMobileTokens, { params }),
    session.call(m.getRateLimits, { params }),
    session.call(m.listMembers, { params }),
    session.call(deps.engine.sourceSettings.getSourceSettings, { params }),
  ])
  const { api_keys } = ok<{ api_keys: ApiKeyJson[] }>(keys)
  const { mobile_tokens } = ok<{ mobile_tokens: MobileTokenJson[] }>(mobile)
  const { rate_limit } = ok<{ rate_limit: RateLimitJson }>(limits)
  const { members } = ok<{ members: MemberJson[] }>(people)
  const { source_settings } = ok<{ source_settings: SourceSettingsJson }>(source)
  // Owners and administrators archive, restore and add members; the API refuses others (403).
  const manages =
    session.admin ||
    members.some((p) => p.role === 'owner' && p.email.toLowerCase() === session.email.toLowerCase())
  const path = `${deps.base}/projects/${project.id}/settings`
  const now = deps.now()
  const ctx: SectionContext = { path, csrf: session.csrf, now }
  const when = (iso: string) => <When iso={iso} now={now} />
  const Form = (props: { action: string; label: string; danger?: boolean }) => (
    <PostButton ctx={ctx} {...props} />
  )
  return renderPage(c, deps, {
    title: `Settings · ${project.name}`,
    status: outcome.status ?? 200,
    project: { id: project.id, name: project.name, tab: 'settings' },
    body: (
      <>
        <h1>Settings</h1>
        {outcome.notice && (
          <p class="notice" role="status">
            {outcome.notice}
          </p>
        )}
        {outcome.error && (
          <p class="alert" role="alert">
            {outcome.error}
          </p>
        )}
        {outcome.token && (
          <section class="notice" aria-labelledby="new-key">
            <h2 id="new-key">Your new API key</h2>
            <p>Copy it now: it is shown only this once.</p>
            <pre id="new-key-token">{outcome.token}</pre>
            <button type="button" data-copy="new-key-token">
              Copy the key
            </button>
          </section>
        )}
        <h2>Project</h2>
        <dl class="facts">
          <dt>Name</dt>
          <dd>{project.name}</dd>
          <dt>Platform</dt>
          <dd>{project.integration_kind}</dd>
          <dt>Status</dt>
          <dd>
            <Badge value={project.status === 'active' ? 'ok' : project.status} />
          </dd>
          <dt>Id</dt>
          <dd>
            <code>{project.id}</code>
          </dd>
        </dl>
        {manages && (
          <p>
            {project.status === 'active' ? (
              <Form action="archive" label="Archive project" danger />
            ) : (
              <Form action="restore" label="Restore project" />
            )}
          </p>
        )}
        <h2>API keys</h2>
        {api_keys.length ? (
          <table>
            <caption class="skip">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Created</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {api_keys.map((k) => (
                <tr>
                  <td>{k.name}</td>
                  <td>{when(k.created_at)}</td>
                  <td>{k.revoked_at ? <>revoked {when(k.revoked_at)}</> : 'active'}</td>
                  <td>
                    {!k.revoked_at && (
                      <Form action={`keys/${k.id}/revoke`} label={`Revoke ${k.name}`} danger />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p class="muted">No API keys yet.</p>
        )}
        <form class="filters" method="post" action={`${path}/keys`}>
          <CsrfField csrf={session.csrf} />
          <label for="key-name">
            Key name
            <input id="key-name" name="name" maxlength={200} placeholder="default" />
          </label>
          <button type="submit">Create API key</button>
        </form>
        <MembersSection ctx={ctx} members={members} manages={manages} />
        <MobileTokensSection ctx={ctx} tokens={mobile_tokens} />
        <RateLimitsSection ctx={ctx} limits={rate_limit} admin={session.admin} />
        <SourceSettingsSection ctx={ctx} settings={source_settings} manages={manages} />
      </>
    ),
  })
}

/** Runs a management call from a form; a refusal re-renders the page with its message. */
async function act(
  c: DashboardContext,
  deps: Deps,
  run: () => Promise<{ status: number; body: unknown; headers: Readonly<Record<string, string>> }>,
  done: string,
) {
  const response = await run()
  if (response.status >= 200 && response.status < 300) {
    return c.redirect(`${deps.base}/projects/${c.req.param('id')}/settings?done=${done}`, 303)
  }
  return settingsPage(c, deps, {
    error: errorMessages(response).join('; '),
    status: response.status,
  })
}

const limitValue = (value: unknown) => {
  const text = typeof value === 'string' ? value.trim() : ''
  return text === '' ? null : /^\d+$/.test(text) ? Number(text) : text
}

/** `GET /projects/:id/settings` and its forms. */
export function registerSettings(app: DashboardApp, deps: Deps): void {
  const m = deps.engine.management
  const call = (c: DashboardContext) => c.get('session').call
  const id = (c: DashboardContext) => ({ id: c.req.param('id') ?? '' })
  app.get('/projects/:id/settings', (c) => {
    const done = DONE[c.req.query('done') ?? '']
    return settingsPage(c, deps, done ? { notice: done } : {})
  })
  app.post('/projects/:id/settings/keys', async (c) => {
    const form = await c.req.parseBody()
    const name =
      typeof form['name'] === 'string' && form['name'].trim() ? form['name'].trim() : undefined
    const response = await call(c)(m.createApiKey, {
      params: id(c),
      body: { api_key: name ? { name } : {} },
    })
    if (response.status !== 201) {
      return settingsPage(c, deps, {
        error: errorMessages(response).join('; '),
        status: response.status,
      })
    }
    return settingsPage(c, deps, { token: (response.body as { token: string }).token, status: 201 })
  })
  app.post('/projects/:id/settings/keys/:key_id/revoke', (c) =>
    act(
      c,
      deps,
      () => call(c)(m.revokeApiKey, { params: { ...id(c), key_id: c.req.param('key_id') } }),
      'key-revoked',
    ),
  )
  app.post('/projects/:id/settings/archive', (c) =>
    act(c, deps, () => call(c)(m.archiveProject, { params: id(c) }), 'archived'),
  )
  app.post('/projects/:id/settings/restore', (c) =>
    act(c, deps, () => call(c)(m.restoreProject, { params: id(c) }), 'restored'),
  )
  app.post('/projects/:id/settings/members', async (c) => {
    const form = await c.req.parseBody()
    return act(
      c,
      deps,
      () =>
        call(c)(m.addMember, {
          params: id(c),
          body: { member: { email: String(form['email'] ?? '') } },
        }),
      'member-added',
    )
  })
  app.post('/projects/:id/settings/mobile-tokens/:token_id/revoke', (c) =>
    act(
      c,
      deps,
      () =>
        call(c)(m.revokeMobileToken, { params: { ...id(c), token_id: c.req.param('token_id') } }),
      'mobile-token-revoked',
    ),
  )
  app.post('/projects/:id/settings/rate-limits', async (c) => {
    const form = await c.req.parseBody()
    const body = {
      rate_limit: Object.fromEntries(LIMIT_FIELDS.map(([key]) => [key, limitValue(form[key])])),
    }
    return act(c, deps, () => call(c)(m.setRateLimits, { params: id(c), body }), 'limits-saved')
  })
  app.post('/projects/:id/settings/source', async (c) => {
    const body = sourceSettingsBody(await c.req.parseBody())
    const set = deps.engine.sourceSettings.setSourceSettings
    return act(c, deps, () => call(c)(set, { params: id(c), body }), 'source-saved')
  })
}
