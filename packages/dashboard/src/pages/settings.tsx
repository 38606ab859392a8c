/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { EngineResponse } from '@tis/ingest'
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
  type Outcome,
  PostButton,
  type RateLimitJson,
  RateLimitsSection,
  type SectionContext,
  type SectionId,
  SectionMessages,
  typedValue,
  When,
} from './settings-sections'
import { SourceSettingsSection, sourceSettingsBody } from './source-settings'

/** The `?done=` notices of the forms and the section each one is shown in (the anchor). */
const DONE = {
  'key-revoked': ['api-keys', 'The API key was revoked.'],
  archived: ['project', 'The project was archived: its API keys stop working.'],
  restored: ['project', 'The project was restored. Create a new API key to send events again.'],
  'member-added': ['project-members', 'The member was added.'],
  'mobile-token-revoked': ['mobile-tokens', 'The mobile token was revoked.'],
  'limits-saved': ['rate-limits', 'The rate limits were saved.'],
  'source-saved': ['source', 'The source code settings were saved.'],
} as const satisfies Record<string, readonly [SectionId, string]>
type Done = keyof typeof DONE

const isDone = (key: string): key is Done => Object.hasOwn(DONE, key)

/** A form's text fields as typed, to fill in again when it is refused; never `_csrf` or a token. */
function typedFields(form: Record<string, unknown>): Record<string, string> {
  const typed: Record<string, string> = {}
  for (const [key, value] of Object.entries(form)) {
    if (key !== '_csrf' && key !== 'github_token' && typeof value === 'string') typed[key] = value
  }
  return typed
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
  const ctx: SectionContext = { path, csrf: session.csrf, now, outcome }
  const when = (iso: string) => <When iso={iso} now={now} />
  const Form = (props: { action: string; section: SectionId; label: string; danger?: boolean }) => (
    <PostButton ctx={ctx} {...props} />
  )
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
        <h2 id="project">Project</h2>
        <SectionMessages ctx={ctx} section="project" />
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
              <Form action="archive" section="project" label="Archive project" danger />
            ) : (
              <Form action="restore" section="project" label="Restore project" />
            )}
          </p>
        )}
        <h2 id="api-keys">API keys</h2>
        <SectionMessages ctx={ctx} section="api-keys" />
        {outcome.token && (
          <section class="notice" aria-labelledby="new-key">
            <h3 id="new-key">Your new API key</h3>
            <p>Copy it now: it is shown only this once.</p>
            <pre id="new-key-token">{outcome.token}</pre>
            <button type="button" data-copy="new-key-token">
              Copy the key
            </button>
          </section>
        )}
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
                      <Form
                        action={`keys/${k.id}/revoke`}
                        section="api-keys"
                        label={`Revoke ${k.name}`}
                        danger
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p class="muted">No API keys yet.</p>
        )}
        <form class="filters" method="post" action={`${path}/keys#api-keys`}>
          <CsrfField csrf={session.csrf} />
          <label for="key-name">
            Key name
            <input
              id="key-name"
              name="name"
              maxlength={200}
              placeholder="default"
              value={typedValue(ctx, 'api-keys', 'name')}
            />
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

/** A settings form's management call and what follows it. */
interface Action {
  /** The engine call. */
  readonly run: () => Promise<EngineResponse>
  /** The notice of a success; its section is the anchor the redirect lands on. */
  readonly done: Done
  /** The form's fields as typed, shown again in its section on a refusal (see {@link typedFields}). */
  readonly typed?: Readonly<Record<string, string>>
}

/**
 * Runs a management call from a form: a success redirects to `settings?done=<done>#<section>`,
 * a refusal re-renders the page with its message and the typed values in that section.
 */
async function act(c: DashboardContext, deps: Deps, action: Action) {
  const response = await action.run()
  const [section] = DONE[action.done]
  if (response.status >= 200 && response.status < 300) {
    const settings = `${deps.base}/projects/${c.req.param('id')}/settings`
    return c.redirect(`${settings}?done=${action.done}#${section}`, 303)
  }
  return settingsPage(c, deps, {
    error: errorMessages(response).join('; '),
    status: response.status,
    section,
    ...(action.typed ? { typed: action.typed } : {}),
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
    const done = c.req.query('done') ?? ''
    if (!isDone(done)) return settingsPage(c, deps, {})
    const [section, notice] = DONE[done]
    return settingsPage(c, deps, { notice, section })
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
        section: 'api-keys',
        typed: typedFields(form),
      })
    }
    const { token } = response.body as { token: string }
    return settingsPage(c, deps, { token, status: 201, section: 'api-keys' })
  })
  app.post('/projects/:id/settings/keys/:key_id/revoke', (c) =>
    act(c, deps, {
      run: () => call(c)(m.revokeApiKey, { params: { ...id(c), key_id: c.req.param('key_id') } }),
      done: 'key-revoked',
    }),
  )
  app.post('/projects/:id/settings/archive', (c) =>
    act(c, deps, { run: () => call(c)(m.archiveProject, { params: id(c) }), done: 'archived' }),
  )
  app.post('/projects/:id/settings/restore', (c) =>
    act(c, deps, { run: () => call(c)(m.restoreProject, { params: id(c) }), done: 'restored' }),
  )
  app.post('/projects/:id/settings/members', async (c) => {
    const form = await c.req.parseBody()
    const member = { email: String(form['email'] ?? '') }
    return act(c, deps, {
      run: () => call(c)(m.addMember, { params: id(c), body: { member } }),
      done: 'member-added',
      typed: typedFields(form),
    })
  })
  app.post('/projects/:id/settings/mobile-tokens/:token_id/revoke', (c) =>
    act(c, deps, {
      run: () =>
        call(c)(m.revokeMobileToken, { params: { ...id(c), token_id: c.req.param('token_id') } }),
      done: 'mobile-token-revoked',
    }),
  )
  app.post('/projects/:id/settings/rate-limits', async (c) => {
    const form = await c.req.parseBody()
    const body = {
      rate_limit: Object.fromEntries(LIMIT_FIELDS.map(([key]) => [key, limitValue(form[key])])),
    }
    return act(c, deps, {
      run: () => call(c)(m.setRateLimits, { params: id(c), body }),
      done: 'limits-saved',
      typed: typedFields(form),
    })
  })
  app.post('/projects/:id/settings/source', async (c) => {
    const form = await c.req.parseBody()
    const body = sourceSettingsBody(form)
    const set = deps.engine.sourceSettings.setSourceSettings
    return act(c, deps, {
      run: () => call(c)(set, { params: id(c), body }),
      done: 'source-saved',
      typed: typedFields(form),
    })
  })
}
