import * as z from 'zod'
import { REPOSITORY_ALIASES } from './enums'
import { ENVELOPE_KEYS, unwrapEnvelope } from './envelope'
import {
  commitSha,
  dateTime,
  freeObject,
  httpUrl,
  pullRequestNumber,
  repository,
  requiredText,
  text,
} from './formats'
import { canonicalizeKeys, type KeySpec } from './keys'
import { formatIssues, renderProblems } from './messages'
import { type KnownFields, type ParseResult, success, unprocessable } from './result'

/** Default `environment` of a deployment (section 2.4). */
export const DEFAULT_DEPLOYMENT_ENVIRONMENT = 'production'

/** The `deployment` object of `POST /api/v1/deployments` (section 2.4). */
export const deploymentSchema = z
  .looseObject({
    release: requiredText().meta({ description: 'Release identifier used by events.' }),
    environment: text().optional().meta({ description: 'Default `production`.' }),
    repository: repository().meta({
      description: 'owner/name; aliases `repo`, `github_repository`, `githubRepository`.',
    }),
    commit_sha: commitSha().meta({
      description: '7 to 40 hexadecimal characters; alias `commitSha`.',
    }),
    branch: text().optional(),
    deployed_at: dateTime().optional(),
    pull_request_number: pullRequestNumber().optional(),
    pull_request_url: httpUrl().optional(),
    release_url: httpUrl().optional(),
    compare_url: httpUrl().optional(),
    workflow_run_url: httpUrl().optional(),
    deployment_url: httpUrl().optional(),
    release_tag: text().optional(),
    github: freeObject().optional(),
  })
  .meta({
    id: 'tis.Deployment',
    description: 'A deployment record (section 2.4); unknown properties are kept.',
  })

const DEPLOYMENT_FIELDS = Object.keys(deploymentSchema.shape)
const DEPLOYMENT_KEYS: KeySpec = { known: new Set(DEPLOYMENT_FIELDS), aliases: REPOSITORY_ALIASES }

/** An accepted deployment with `environment` defaulted. */
export type NormalizedDeployment = Omit<KnownFields<typeof deploymentSchema.shape>, 'environment'> &
  Record<string, unknown> & {
    environment: string
  }

/**
 * Parses the body of `POST /api/v1/deployments`: unwraps `deployment`/`DEPLOYMENT`, renames
 * camelCase, upper-case and aliased fields and validates section 2.4.
 */
export function parseDeploymentEnvelope(body: unknown): ParseResult<NormalizedDeployment> {
  const unwrapped = unwrapEnvelope(body, ENVELOPE_KEYS.deployment)
  if (!unwrapped.ok) return unwrapped
  const input = canonicalizeKeys(unwrapped.value, DEPLOYMENT_KEYS)
  const parsed = deploymentSchema.safeParse(input)
  if (!parsed.success) {
    return unprocessable(renderProblems(formatIssues(parsed.error.issues), DEPLOYMENT_FIELDS))
  }
  return success({
    ...parsed.data,
    environment: parsed.data.environment ?? DEFAULT_DEPLOYMENT_ENVIRONMENT,
  })
}
