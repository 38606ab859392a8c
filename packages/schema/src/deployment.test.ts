import { describe, expect, it } from 'vitest'
import { parseDeploymentEnvelope } from './deployment'
import { errorsOf } from './test-results'

const base = { release: 'v1.2.0', repository: 'octo/app', commit_sha: 'abcdef1' }
const parse = (deployment: object) => parseDeploymentEnvelope({ deployment })

const rejected = (deployment: object) => errorsOf(parse(deployment))

describe('deployment required fields', () => {
  it('accepts the minimal record and defaults environment to production', () => {
    expect(parse(base)).toEqual({ ok: true, value: { ...base, environment: 'production' } })
  })

  it.each([
    ['release', "release can't be blank"],
    ['repository', "repository can't be blank"],
    ['commit_sha', "commit_sha can't be blank"],
  ])('%s is required', (field, error) => {
    const { [field as keyof typeof base]: _omit, ...rest } = base
    expect(rejected(rest)).toEqual([error])
  })

  it('lists all three missing fields in order', () => {
    expect(rejected({ branch: 'main' })).toEqual([
      "release can't be blank",
      "repository can't be blank",
      "commit_sha can't be blank",
    ])
  })
})

describe('deployment names and aliases', () => {
  it.each([
    ['repo', 'repository', 'o/n', 'o/n'],
    ['github_repository', 'repository', 'o/n', 'o/n'],
    ['githubRepository', 'repository', 'o/n', 'o/n'],
    ['GITHUB_REPOSITORY', 'repository', 'o/n', 'o/n'],
    ['commitSha', 'commit_sha', 'ABCDEF0123', 'abcdef0123'],
    ['deployedAt', 'deployed_at', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
    ['pullRequestNumber', 'pull_request_number', 42, 42],
    [
      'pullRequestUrl',
      'pull_request_url',
      'https://github.com/o/n/pull/42',
      'https://github.com/o/n/pull/42',
    ],
    [
      'releaseUrl',
      'release_url',
      'https://github.com/o/n/releases/v1',
      'https://github.com/o/n/releases/v1',
    ],
    [
      'compareUrl',
      'compare_url',
      'https://github.com/o/n/compare/a...b',
      'https://github.com/o/n/compare/a...b',
    ],
    [
      'workflowRunUrl',
      'workflow_run_url',
      'https://github.com/o/n/actions/runs/1',
      'https://github.com/o/n/actions/runs/1',
    ],
    ['deploymentUrl', 'deployment_url', 'https://app.example.com', 'https://app.example.com'],
    ['releaseTag', 'release_tag', 'v1', 'v1'],
    ['RELEASE', 'release', 'v2', 'v2'],
  ])('%s → %s', (sent, canonical, value, stored) => {
    const { [canonical as keyof typeof base]: _omit, ...rest } = base
    const result = parse({ ...rest, [sent]: value })
    expect(result).toMatchObject({ ok: true, value: { [canonical]: stored } })
    if (sent !== canonical) expect(result.ok && result.value).not.toHaveProperty(sent)
  })

  it('keeps the github object and unknown properties', () => {
    expect(parse({ ...base, github: { run_id: 7 }, actor: 'me' })).toMatchObject({
      value: { github: { run_id: 7 }, actor: 'me' },
    })
  })

  it('reduces a repository URL to owner/name', () => {
    expect(parse({ ...base, repository: 'git@github.com:octo/app.git' })).toMatchObject({
      value: { repository: 'octo/app' },
    })
  })
})

describe('deployment validation', () => {
  it.each([
    [
      'commit_sha of 6 characters',
      { commit_sha: 'abcdef' },
      'commit_sha is invalid (must be 7 to 40 hexadecimal characters)',
    ],
    [
      'commit_sha of 41 characters',
      { commit_sha: 'a'.repeat(41) },
      'commit_sha is invalid (must be 7 to 40 hexadecimal characters)',
    ],
    [
      'commit_sha not hexadecimal',
      { commit_sha: 'main-123' },
      'commit_sha is invalid (must be 7 to 40 hexadecimal characters)',
    ],
    [
      'repository not owner/name',
      { repository: 'app' },
      'repository must be a repository full name in owner/name form',
    ],
    [
      'pull_request_number as a fraction',
      { pull_request_number: 4.2 },
      'pull_request_number must be a string or an integer',
    ],
    [
      'pull_request_url relative',
      { pull_request_url: '/pull/1' },
      'pull_request_url must be an http or https URL',
    ],
    [
      'release_url not a URI',
      { release_url: 'not a url' },
      'release_url must be an http or https URL',
    ],
    ['compare_url a number', { compare_url: 5 }, 'compare_url must be a string'],
    [
      'workflow_run_url relative',
      { workflow_run_url: 'runs/1' },
      'workflow_run_url must be an http or https URL',
    ],
    [
      'deployment_url without scheme',
      { deployment_url: 'example.com' },
      'deployment_url must be an http or https URL',
    ],
    [
      'deployed_at not RFC 3339',
      { deployed_at: '2026-01-01' },
      'deployed_at must be an RFC 3339 date-time (for example 2026-01-31T12:00:00Z)',
    ],
    ['github not an object', { github: 'x' }, 'github must be an object'],
    ['release blank', { release: ' ' }, "release can't be blank"],
  ])('%s', (_rule, change, error) => {
    expect(rejected({ ...base, ...change })).toEqual([error])
  })

  it.each([['abcdef1'], ['A'.repeat(40)], ['0123456789abcdefABCDEF']])(
    'commit_sha %s is inside the pattern',
    (sha) => {
      expect(parse({ ...base, commit_sha: sha })).toMatchObject({
        ok: true,
        value: { commit_sha: sha.toLowerCase() },
      })
    },
  )

  it('pull_request_number may be a string', () => {
    expect(parse({ ...base, pull_request_number: '42' }).ok).toBe(true)
  })
})
