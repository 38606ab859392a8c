import type { DeploymentRecord } from '../ports'

/** The repository and commit whose files a stack's excerpts are cut from. */
export interface SourceCommit {
  /** `owner/name`. */
  readonly repository: string
  readonly commitSha: string
  /** Where the commit came from: the event's own fields, or a recorded deployment. */
  readonly from: 'event' | 'deployment'
}

const SHA = /^[0-9a-f]{7,40}$/i
const REPOSITORY = /^[^/\s]+\/[^/\s]+$/

function field(payload: Readonly<Record<string, unknown>>, key: string): string | null {
  const context = payload['context']
  const v =
    payload[key] ??
    (typeof context === 'object' && context !== null
      ? (context as Record<string, unknown>)[key]
      : undefined)
  return typeof v === 'string' && v !== '' ? v : null
}

/**
 * The commit of an event: its `commit_sha` and `repository` (top level, else in `context`) when
 * it has both; else the deployment the event detail shows (`deployment`: the one of the event's
 * release and environment, restricted to its repository when it names one, else the newest one
 * of its environment deployed before it); `null` when there is neither. An event that names a
 * commit but no repository takes the repository of that deployment.
 */
export function resolveCommit(
  payload: Readonly<Record<string, unknown>>,
  deployment: DeploymentRecord | null,
): SourceCommit | null {
  const sha = field(payload, 'commit_sha')
  const repository = field(payload, 'repository') ?? deployment?.repository ?? null
  if (sha !== null && SHA.test(sha) && repository !== null && REPOSITORY.test(repository)) {
    return { repository, commitSha: sha.toLowerCase(), from: 'event' }
  }
  if (deployment === null) return null
  return {
    repository: deployment.repository,
    commitSha: deployment.commitSha.toLowerCase(),
    from: 'deployment',
  }
}
