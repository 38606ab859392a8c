import type { DashboardApp, DashboardContext, Deps } from '../context'
import { errorMessages } from '../engine-client'
import { registerAlertSettings } from './alerts-routes'
import { dataScrubbingBody } from './data-scrubbing-section'
import { LIMIT_FIELDS } from './rate-limits-section'
import { act } from './settings-act'
import { DONE, isDone, typedFields } from './settings-done'
import { settingsPage } from './settings-page'
import { sourceSettingsBody } from './source-settings'

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
  app.post('/projects/:id/settings/retention', async (c) => {
    const form = await c.req.parseBody()
    const days = form['default'] === '1' ? null : limitValue(form['days'])
    return act(c, deps, {
      run: () => call(c)(m.setRetention, { params: id(c), body: { retention: { days } } }),
      done: 'retention-saved',
      typed: typedFields(form),
    })
  })
  app.post('/projects/:id/settings/data-scrubbing', async (c) => {
    const form = await c.req.parseBody()
    return act(c, deps, {
      run: () => call(c)(m.setDataScrubbing, { params: id(c), body: dataScrubbingBody(form) }),
      done: 'scrubbing-saved',
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
  const maps = deps.engine.sourceMaps
  app.post('/projects/:id/settings/source-maps/:bundle_id/delete', (c) =>
    act(c, deps, {
      run: () =>
        call(c)(maps.deleteArtifactBundle, {
          params: { ...id(c), bundle_id: c.req.param('bundle_id') },
        }),
      done: 'bundle-deleted',
    }),
  )
  registerAlertSettings(app, deps)
}
