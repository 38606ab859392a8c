/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { Html } from '../layout'
import { PostButton, type SectionContext, SectionMessages, When } from './settings-section-parts'

/** A live mobile ingest token as listed. */
export interface MobileTokenJson {
  id: string
  platform: string
  environment: string | null
  release: string | null
  created_at: string
  expires_at?: string
}

/** The live mobile tokens, each with a revoke button. */
export function MobileTokensSection(props: {
  ctx: SectionContext
  tokens: readonly MobileTokenJson[]
}): Html {
  const { ctx } = props
  const mobile_tokens = props.tokens
  const when = (iso: string) => <When iso={iso} now={ctx.now} />
  const Form = (p: { action: string; label: string; danger?: boolean }) => (
    <PostButton ctx={ctx} section="mobile-tokens" {...p} />
  )
  return (
    <>
      <h2 id="mobile-tokens">Mobile tokens</h2>
      <SectionMessages ctx={ctx} section="mobile-tokens" />
      <p class="muted">
        Apps mint short-lived ingest tokens with an API key (
        <code>POST /api/v1/mobile_ingest_tokens</code>); the live ones are listed here.
      </p>
      {mobile_tokens.length ? (
        <table>
          <caption class="skip">Live mobile ingest tokens</caption>
          <thead>
            <tr>
              <th scope="col">Platform</th>
              <th scope="col">Environment</th>
              <th scope="col">Release</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {mobile_tokens.map((t) => (
              <tr>
                <td>{t.platform}</td>
                <td>{t.environment ?? ''}</td>
                <td>{t.release ?? ''}</td>
                <td>{when(t.created_at)}</td>
                <td>
                  <Form
                    action={`mobile-tokens/${t.id}/revoke`}
                    label={`Revoke the ${t.platform} token`}
                    danger
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">No live mobile tokens.</p>
      )}
    </>
  )
}
