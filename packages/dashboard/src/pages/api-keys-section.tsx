/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { CsrfField, type Html } from '../layout'
import {
  PostButton,
  type SectionContext,
  type SectionId,
  SectionMessages,
  typedValue,
  When,
} from './settings-section-parts'

/** An API key as listed (never its token). */
export interface ApiKeyJson {
  id: string
  name: string
  created_at: string
  revoked_at: string | null
}

/** The API keys, each with a revoke button; a new key's token once; the form to create one. */
export function ApiKeysSection(props: { ctx: SectionContext; keys: readonly ApiKeyJson[] }): Html {
  const { ctx } = props
  const { outcome } = ctx
  const api_keys = props.keys
  const when = (iso: string) => <When iso={iso} now={ctx.now} />
  const Form = (form: { action: string; section: SectionId; label: string; danger?: boolean }) => (
    <PostButton ctx={ctx} {...form} />
  )
  return (
    <>
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
      <form class="filters" method="post" action={`${ctx.path}/keys#api-keys`}>
        <CsrfField csrf={ctx.csrf} />
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
    </>
  )
}
