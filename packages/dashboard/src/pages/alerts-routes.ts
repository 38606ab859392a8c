import type { CreatedAlertChannel } from '@tis/schema'
import type { DashboardApp, DashboardContext, Deps } from '../context'
import { errorMessages } from '../engine-client'
import { channelBody, ruleBody, typedAlertFields } from './alerts-form'
import { act } from './settings-act'
import { DONE } from './settings-done'
import { settingsPage } from './settings-page'

/**
 * The alerts forms of `/projects/:id/settings`: add, delete and test a channel (a webhook's
 * secret is shown once, in the answer to the form), add and delete a rule.
 */
export function registerAlertSettings(app: DashboardApp, deps: Deps): void {
  const alerts = deps.engine.alerts
  const call = (c: DashboardContext) => c.get('session').call
  const id = (c: DashboardContext) => ({ id: c.req.param('id') ?? '' })
  const channel = (c: DashboardContext) => ({
    ...id(c),
    channel_id: c.req.param('channel_id') ?? '',
  })

  app.post('/projects/:id/settings/alert-channels', async (c) => {
    const form = await c.req.parseBody({ all: true })
    const response = await call(c)(alerts.createAlertChannel, {
      params: id(c),
      body: { alert_channel: channelBody(form) },
    })
    if (response.status !== 201) {
      return settingsPage(c, deps, {
        error: errorMessages(response).join('; '),
        status: response.status,
        section: 'alert-channels',
        typed: typedAlertFields(form),
      })
    }
    const { secret } = response.body as CreatedAlertChannel
    const [section, notice] = DONE['channel-created']
    if (secret === null) {
      const settings = `${deps.base}/projects/${id(c).id}/settings`
      return c.redirect(`${settings}?done=channel-created#${section}`, 303)
    }
    // Like a new API key: this answer is the only place the secret is ever shown.
    return settingsPage(c, deps, { secret, notice, status: 201, section })
  })
  app.post('/projects/:id/settings/alert-channels/:channel_id/delete', (c) =>
    act(c, deps, {
      run: () => call(c)(alerts.deleteAlertChannel, { params: channel(c) }),
      done: 'channel-deleted',
    }),
  )
  app.post('/projects/:id/settings/alert-channels/:channel_id/test', (c) =>
    act(c, deps, {
      run: () => call(c)(alerts.testAlertChannel, { params: channel(c) }),
      done: 'channel-tested',
    }),
  )
  app.post('/projects/:id/settings/alert-rules', async (c) => {
    const form = await c.req.parseBody({ all: true })
    return act(c, deps, {
      run: () =>
        call(c)(alerts.createAlertRule, { params: id(c), body: { alert_rule: ruleBody(form) } }),
      done: 'rule-created',
      typed: typedAlertFields(form),
    })
  })
  app.post('/projects/:id/settings/alert-rules/:rule_id/delete', (c) =>
    act(c, deps, {
      run: () =>
        call(c)(alerts.deleteAlertRule, { params: { ...id(c), rule_id: c.req.param('rule_id') } }),
      done: 'rule-deleted',
    }),
  )
}
