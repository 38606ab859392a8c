/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { ALERT_LEVELS, ALERT_TRIGGERS, type AlertChannel, type AlertRule } from '@tis/schema'
import { CsrfField, type Html } from '../layout'
import {
  PostButton,
  type SectionContext,
  SectionMessages,
  SelectField,
  typedValue,
} from './settings-section-parts'

/** A rule's filters as one line: environment and level, or "any". */
const filters = (rule: AlertRule) =>
  [rule.environment && `environment ${rule.environment}`, rule.level && `level ${rule.level}`]
    .filter(Boolean)
    .join(', ') || 'any'

/** A spike rule's threshold and window, e.g. "100 in 300 s". */
const threshold = (rule: AlertRule) =>
  rule.threshold === null ? '' : `${rule.threshold} in ${rule.window_seconds ?? '?'} s`

/** The alert rules, each with delete; the form to add one over the project's channels. */
export function AlertRulesSection(props: {
  ctx: SectionContext
  rules: readonly AlertRule[]
  channels: readonly AlertChannel[]
}): Html {
  const { ctx, rules, channels } = props
  const typed = (name: string) => typedValue(ctx, 'alert-rules', name)
  const names = new Map(channels.map((ch) => [ch.id, ch.name]))
  const checked = new Set(typed('channel_ids').split(','))
  const input = (name: string, label: string, extra: Record<string, unknown> = {}) => (
    <label for={`rule-${name}`}>
      {label}
      <input id={`rule-${name}`} name={name} value={typed(name)} {...extra} />
    </label>
  )
  return (
    <>
      <h2 id="alert-rules">Alert rules</h2>
      <SectionMessages ctx={ctx} section="alert-rules" />
      {rules.length ? (
        <table>
          <caption class="skip">Alert rules</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Trigger</th>
              <th scope="col">Channels</th>
              <th scope="col">Filters</th>
              <th scope="col">Threshold</th>
              <th scope="col">Quiet period</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rules.map((rule) => (
              <tr>
                <td>{rule.name}</td>
                <td>{rule.trigger}</td>
                <td>{rule.channel_ids.map((id) => names.get(id) ?? id).join(', ')}</td>
                <td>{filters(rule)}</td>
                <td>{threshold(rule)}</td>
                <td>{rule.quiet_seconds ? `${rule.quiet_seconds} s` : 'none'}</td>
                <td>
                  <PostButton
                    ctx={ctx}
                    section="alert-rules"
                    action={`alert-rules/${rule.id}/delete`}
                    label={`Delete ${rule.name}`}
                    danger
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">No alert rules yet.</p>
      )}
      {channels.length ? (
        <form class="filters" method="post" action={`${ctx.path}/alert-rules#alert-rules`}>
          <CsrfField csrf={ctx.csrf} />
          {input('name', 'Name', { maxlength: 200, required: true })}
          <SelectField
            id="rule-trigger"
            name="trigger"
            label="Trigger"
            options={ALERT_TRIGGERS}
            current={typed('trigger')}
          />
          <fieldset>
            <legend>Channels</legend>
            {channels.map((ch) => (
              <label>
                <input
                  type="checkbox"
                  name="channel_ids"
                  value={ch.id}
                  checked={checked.has(ch.id)}
                />
                {ch.name}
              </label>
            ))}
          </fieldset>
          {input('environment', 'Environment (optional)')}
          <SelectField
            id="rule-level"
            name="level"
            label="Level (issue triggers)"
            options={ALERT_LEVELS}
            current={typed('level')}
            blank="any"
          />
          {input('threshold', 'Threshold (spike)', { inputmode: 'numeric' })}
          {input('window_seconds', 'Window, seconds (spike)', { inputmode: 'numeric' })}
          {input('quiet_seconds', 'Quiet period, seconds', { inputmode: 'numeric' })}
          <button type="submit">Add rule</button>
        </form>
      ) : (
        <p class="muted">Add a channel first: a rule notifies one or more channels.</p>
      )}
    </>
  )
}
