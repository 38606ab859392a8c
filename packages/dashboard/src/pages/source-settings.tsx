/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { SourceSettings as SourceSettingsJson } from '@tis/schema'
import { CsrfField, type Html } from '../layout'
import { type SectionContext, SectionMessages, typedValue, When } from './settings-section-parts'

/**
 * The `PUT …/source_settings` body of the settings form: a non-empty token replaces the stored
 * one, the "remove" box with an empty token clears it, an empty token field keeps it; an empty
 * path prefix, context lines or API URL clears that setting (back to the default). Values are
 * sent as typed: the engine validates them and its 422 is shown on the page.
 */
export function sourceSettingsBody(form: Record<string, unknown>): Record<string, unknown> {
  const text = (key: string) => (typeof form[key] === 'string' ? form[key].trim() : '')
  const body: Record<string, unknown> = {}
  const token = text('github_token')
  if (token) body['github_token'] = token
  else if (form['clear_token']) body['github_token'] = null
  if ('path_prefix' in form) body['path_prefix'] = text('path_prefix') || null
  if ('context_lines' in form) {
    const lines = text('context_lines')
    body['context_lines'] = lines === '' ? null : /^\d+$/.test(lines) ? Number(lines) : lines
  }
  if ('github_api_url' in form) body['github_api_url'] = text('github_api_url') || null
  return body
}

/** The project's GitHub settings to everyone; the form to the owner and administrators. */
export function SourceSettingsSection(props: {
  ctx: SectionContext
  settings: SourceSettingsJson
  manages: boolean
}): Html {
  const { ctx, settings: s, manages } = props
  // A refused save shows what was typed (never the token, which is not sent back).
  const typed = (name: string, stored: string) => typedValue(ctx, 'source', name, stored)
  return (
    <>
      <h2 id="source">Source code (GitHub)</h2>
      <SectionMessages ctx={ctx} section="source" />
      <p class="muted">
        Stack frames show the lines of code at the deployed commit, fetched from GitHub with a token
        that may read the repository's contents (a fine-grained token with Contents: Read-only).
      </p>
      <dl class="facts" id="source-facts">
        <dt>Project token</dt>
        <dd>{s.github_token_set ? 'set (never shown)' : 'not set'}</dd>
        <dt>Server token</dt>
        <dd>
          {!s.server_token_available
            ? 'not configured'
            : s.github_token_set
              ? 'available (the project token is used)'
              : s.github_api_url
                ? "available, but never sent to the project's own API URL: set a project token"
                : 'available (used for this project)'}
        </dd>
        <dt>Path prefix</dt>
        <dd>{s.path_prefix ? <code>{s.path_prefix}</code> : 'none'}</dd>
        <dt>Context lines</dt>
        <dd>{s.context_lines}</dd>
        <dt>GitHub API URL</dt>
        <dd>
          <code>{s.effective_github_api_url}</code>
          {s.github_api_url ? " (the project's own)" : " (the server's)"}
        </dd>
        {s.updated_at && (
          <>
            <dt>Updated</dt>
            <dd>
              <When iso={s.updated_at} now={ctx.now} />
            </dd>
          </>
        )}
      </dl>
      {manages ? (
        <form
          class="stack"
          method="post"
          action={`${ctx.path}/source#source`}
          aria-labelledby="source"
        >
          <CsrfField csrf={ctx.csrf} />
          <label for="source-token">
            {s.github_token_set ? 'Replace the GitHub token' : 'GitHub token'}
            <input
              id="source-token"
              name="github_token"
              type="password"
              autocomplete="new-password"
              spellcheck={false}
              aria-describedby="source-token-help"
            />
          </label>
          <span class="muted" id="source-token-help">
            {s.github_token_set
              ? 'Leave empty to keep the current token.'
              : 'Stored encrypted; never shown again.'}
          </span>
          {s.github_token_set && (
            <label for="source-clear-token" class="check">
              <span>
                <input
                  id="source-clear-token"
                  name="clear_token"
                  type="checkbox"
                  value="1"
                  checked={typed('clear_token', '') !== ''}
                />{' '}
                Remove the project token
              </span>
            </label>
          )}
          <label for="source-prefix">
            Path prefix (stripped from absolute frame paths, e.g. /app/)
            <input
              id="source-prefix"
              name="path_prefix"
              value={typed('path_prefix', s.path_prefix ?? '')}
            />
          </label>
          <label for="source-lines">
            Context lines (0 to 50)
            <input
              id="source-lines"
              name="context_lines"
              type="number"
              min={0}
              max={50}
              value={typed('context_lines', String(s.context_lines))}
            />
          </label>
          <label for="source-api">
            GitHub API URL (GitHub Enterprise; empty for the server's)
            <input
              id="source-api"
              name="github_api_url"
              type="url"
              value={typed('github_api_url', s.github_api_url ?? '')}
              placeholder={s.effective_github_api_url}
            />
          </label>
          <p>
            <button type="submit">Save source settings</button>
          </p>
        </form>
      ) : (
        <p class="muted" id="source-readonly">
          Only the owner and administrators can change the source settings.
        </p>
      )}
    </>
  )
}
