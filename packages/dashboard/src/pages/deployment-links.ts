import { html } from 'hono/html'
import { shortId } from '../format'
import type { Html } from '../layout'
import type { DeploymentJson } from '../types'

const GITHUB_REPOSITORY = /^[\w.-]+\/[\w.-]+$/

/** A link only for http(s) URLs, so stored values can never become `javascript:` links. */
export function safeLink(url: string | null, text: string): Html {
  if (!url || !/^https?:\/\//i.test(url)) return html``
  return html`<a href="${url}" rel="noreferrer">${text}</a>`
}

/** The commit URL on GitHub when the repository is an `owner/name`. */
function commitUrl(d: DeploymentJson): string | null {
  if (!d.commit_sha || !d.repository || !GITHUB_REPOSITORY.test(d.repository)) return null
  return `https://github.com/${d.repository}/commit/${d.commit_sha}`
}

/** The deployment's facts and every link it has (commit, PR, release, compare, run). */
export function deploymentLinks(d: DeploymentJson): Html {
  const links = [
    safeLink(commitUrl(d), `commit ${shortId(d.commit_sha, 7)}`),
    safeLink(d.pull_request_url, `PR #${d.pull_request_number ?? ''}`),
    safeLink(d.release_url, `release ${d.release_tag ?? d.release}`),
    safeLink(d.compare_url, 'compare'),
    safeLink(d.workflow_run_url, 'workflow run'),
    safeLink(d.deployment_url, 'deployment'),
  ].filter((l) => l.toString() !== '')
  return html`<dl class="facts"><dt>Release</dt><dd>${d.release}</dd><dt>Environment</dt><dd>${d.environment}</dd>
${d.repository ? html`<dt>Repository</dt><dd>${d.repository}</dd>` : ''}
${d.branch ? html`<dt>Branch</dt><dd>${d.branch}</dd>` : ''}
${d.commit_sha ? html`<dt>Commit</dt><dd><code>${shortId(d.commit_sha, 12)}</code></dd>` : ''}
<dt>Deployed</dt><dd><time datetime="${d.deployed_at}">${d.deployed_at}</time></dd>
${links.length ? html`<dt>Links</dt><dd>${links.map((l, i) => html`${i ? ' · ' : ''}${l}`)}</dd>` : ''}</dl>`
}
