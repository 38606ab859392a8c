/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { StoredDeployment as DeploymentJson } from '@tis/schema'
import { shortId } from '../format'
import type { Html } from '../layout'
import { ReleaseLink } from './release-link'

const GITHUB_REPOSITORY = /^[\w.-]+\/[\w.-]+$/

/** An http(s) URL, else `null`: stored values can never become `javascript:` links. */
export function safeUrl(url: string | null): string | null {
  return url && /^https?:\/\//i.test(url) ? url : null
}

/** The commit URL on GitHub when the repository is an `owner/name`. */
function commitUrl(d: DeploymentJson): string | null {
  if (!d.commit_sha || !d.repository || !GITHUB_REPOSITORY.test(d.repository)) return null
  return `https://github.com/${d.repository}/commit/${d.commit_sha}`
}

/**
 * The deployment's facts and every link it has (commit, PR, release, compare, run); with
 * `project`, the release links to its release page.
 */
export function DeploymentLinks(props: {
  deployment: DeploymentJson
  project?: { readonly base: string; readonly projectId: string }
}): Html {
  const { deployment: d, project } = props
  const links = (
    [
      [commitUrl(d), `commit ${shortId(d.commit_sha, 7)}`],
      [d.pull_request_url, `PR #${d.pull_request_number ?? ''}`],
      [d.release_url, `release ${d.release_tag ?? d.release}`],
      [d.compare_url, 'compare'],
      [d.workflow_run_url, 'workflow run'],
      [d.deployment_url, 'deployment'],
    ] as const
  )
    .map(([url, text]) => [safeUrl(url), text] as const)
    .filter(([url]) => url !== null)
  return (
    <dl class="facts">
      <dt>Release</dt>
      <dd>{project ? <ReleaseLink {...project} version={d.release} /> : d.release}</dd>
      <dt>Environment</dt>
      <dd>{d.environment}</dd>
      {d.repository && (
        <>
          <dt>Repository</dt>
          <dd>{d.repository}</dd>
        </>
      )}
      {d.branch && (
        <>
          <dt>Branch</dt>
          <dd>{d.branch}</dd>
        </>
      )}
      {d.commit_sha && (
        <>
          <dt>Commit</dt>
          <dd>
            <code>{shortId(d.commit_sha, 12)}</code>
          </dd>
        </>
      )}
      <dt>Deployed</dt>
      <dd>
        <time datetime={d.deployed_at ?? undefined}>{d.deployed_at}</time>
      </dd>
      {links.length > 0 && (
        <>
          <dt>Links</dt>
          <dd>
            {links.map(([url, text], i) => (
              <>
                {i ? ' · ' : ''}
                <a href={url ?? ''} rel="noreferrer">
                  {text}
                </a>
              </>
            ))}
          </dd>
        </>
      )}
    </dl>
  )
}
