/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { FrameSource as SourceJson, SourceCommit as StoredSourceCommit } from '@tis/schema'
import { shortId } from '../format'
import type { Html } from '../layout'

/** A frame's excerpt from the code host. */
export type OkSource = Extract<SourceJson, { status: 'ok' }>

/** Why a frame shows no code, in words (docs/source-excerpts.md, `source.status`). */
const NO_SOURCE: Record<string, string> = {
  not_configured: 'Connect GitHub in project settings to see source.',
  no_commit:
    'No commit is known for this event: send commit_sha and repository with it, or record deployments.',
  not_found:
    'GitHub has no such file or line at this commit, or the token cannot see the repository.',
  no_access: 'GitHub refused the token: check it in project settings.',
  rate_limited: "GitHub's rate limit for the token is spent; reload later to see the source.",
  not_in_repository: "Library or runtime code, not the project's repository.",
  timeout: 'GitHub took too long to answer; reload the page to see the source.',
  too_large: 'The file is over 1 MiB, too large to show.',
  unavailable: 'GitHub could not be reached; reload later to see the source.',
  skipped: 'Not fetched: only the first 20 files of a stack are.',
}

/** Whether a frame has an excerpt from the code host. */
export const isOk = (source: SourceJson | undefined): source is OkSource =>
  source?.status === 'ok' && Array.isArray((source as OkSource).lines)

/** Only web links: the page never renders a `javascript:` or other scheme as a link. */
const webUrl = (url: string) => /^https?:\/\//i.test(url)

/** The lines around the frame's line, numbered, the frame's own line marked for every reader. */
export function Excerpt({ source, label }: { source: OkSource; label: string }): Html {
  const sha = shortId(source.commit_sha, 7)
  return (
    <div class="excerpt">
      <table>
        <caption>
          <code>{`${source.path}:${source.line}`}</code>{' '}
          <span class="muted">{`in ${source.repository}`}</span>
          {webUrl(source.url) && (
            <>
              {' · '}
              <a href={source.url}>
                {`view on GitHub at ${sha}`}
                <span class="skip">{` (${label})`}</span>
              </a>
            </>
          )}
        </caption>
        <tbody>
          {source.lines.map((l) =>
            l.number === source.line ? (
              <tr class="hit" aria-current="true">
                <th scope="row" class="ln">
                  <span class="skip">Error line </span>
                  {l.number}
                </th>
                <td>
                  <code>{l.text}</code>
                </td>
              </tr>
            ) : (
              <tr>
                <th scope="row" class="ln">
                  {l.number}
                </th>
                <td>
                  <code>{l.text}</code>
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  )
}

/** A frame's status in words, linked to the settings where the fix is made there. */
export function NoSource({
  source,
  settings,
}: {
  source: SourceJson | undefined
  settings: string
}) {
  if (!source) return null
  const { message } = source as { message?: string }
  // Why a file is not the repository's is specific (a dependency, an unmapped absolute path).
  const text =
    source.status === 'not_in_repository' && message
      ? `Not in the repository: ${message}.`
      : (NO_SOURCE[source.status] ?? message ?? `No source (${source.status}).`)
  const fix =
    source.status === 'not_configured' ||
    source.status === 'no_access' ||
    text.includes('path prefix')
  return (
    <p class="muted no-source" data-status={source.status}>
      {fix ? <a href={settings}>{text}</a> : text}
    </p>
  )
}

/** Where the code comes from: the event's own commit or its deployment's. */
export function SourceCommit({ commit }: { commit: StoredSourceCommit | undefined }): Html {
  if (!commit) {
    return (
      <p class="muted">
        No commit is known for this event, so no source is shown: send <code>commit_sha</code> and{' '}
        <code>repository</code> with events, or record deployments.
      </p>
    )
  }
  return (
    <p>
      {'Source at '}
      <code>{`${commit.repository}@${shortId(commit.commit_sha, 7)}`}</code>
      {commit.from === 'event'
        ? ', the commit sent with the event.'
        : ", the commit of the event's deployment."}
    </p>
  )
}
