/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { ALERT_CHANNEL_TYPES, type AlertChannel } from '@tis/schema'
import { CsrfField, type Html } from '../layout'
import {
  PostButton,
  type SectionContext,
  SectionMessages,
  SelectField,
  typedValue,
  When,
} from './settings-section-parts'

/**
 * Where a channel sends, as listed: a URL's host only (a Slack URL's path is its secret, and a
 * webhook's may hold one), an email channel's recipients.
 */
export function channelTarget(channel: AlertChannel): string {
  if (channel.to) return channel.to.join(', ')
  if (!channel.url) return ''
  try {
    return new URL(channel.url).host
  } catch {
    return ''
  }
}

/** The alert channels, each with "Send test" and delete; a new webhook's secret once; the form. */
export function AlertChannelsSection(props: {
  ctx: SectionContext
  channels: readonly AlertChannel[]
}): Html {
  const { ctx, channels } = props
  const typed = (name: string) => typedValue(ctx, 'alert-channels', name)
  const Form = (p: { action: string; label: string; danger?: boolean }) => (
    <PostButton ctx={ctx} section="alert-channels" {...p} />
  )
  return (
    <>
      <h2 id="alert-channels">Alert channels</h2>
      <SectionMessages ctx={ctx} section="alert-channels" />
      {ctx.outcome.secret && (
        <section class="notice" aria-labelledby="new-secret">
          <h3 id="new-secret">The webhook's signing secret</h3>
          <p>
            Copy it now, it is not shown again. Receivers check <code>X-Tis-Signature</code> with it
            (see the alerts documentation).
          </p>
          <pre id="new-secret-value">{ctx.outcome.secret}</pre>
          <button type="button" data-copy="new-secret-value">
            Copy the secret
          </button>
        </section>
      )}
      {channels.length ? (
        <table>
          <caption class="skip">Alert channels</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Target</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {channels.map((ch) => (
              <tr>
                <td>{ch.name}</td>
                <td>{ch.type}</td>
                <td>{channelTarget(ch)}</td>
                <td>
                  <When iso={ch.created_at} now={ctx.now} />
                </td>
                <td>
                  <Form action={`alert-channels/${ch.id}/test`} label={`Send test to ${ch.name}`} />
                  <Form
                    action={`alert-channels/${ch.id}/delete`}
                    label={`Delete ${ch.name}`}
                    danger
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">No alert channels yet.</p>
      )}
      <form class="filters" method="post" action={`${ctx.path}/alert-channels#alert-channels`}>
        <CsrfField csrf={ctx.csrf} />
        <label for="channel-name">
          Name
          <input id="channel-name" name="name" maxlength={200} required value={typed('name')} />
        </label>
        <SelectField
          id="channel-type"
          name="type"
          label="Type"
          options={ALERT_CHANNEL_TYPES}
          current={typed('type')}
        />
        <label for="channel-url">
          URL (webhook, Slack)
          <input id="channel-url" name="url" type="url" value={typed('url')} />
        </label>
        <label for="channel-to">
          Recipients (addresses, comma-separated)
          <input id="channel-to" name="to" value={typed('to')} />
        </label>
        <button type="submit">Add channel</button>
      </form>
    </>
  )
}
