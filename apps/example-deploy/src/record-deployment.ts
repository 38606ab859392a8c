import { createClient } from '@tis/sdk'

// Records the deployment CI just made, so tis can tie errors to the release that introduced
// them. The GITHUB_* variables are set by GitHub Actions; elsewhere, set them (or edit below).
const env = (name: string) => process.env[name] || undefined
const required = (name: string) => {
  const value = env(name)
  if (value === undefined) {
    console.error(`record-deployment: ${name} is not set`)
    process.exit(2)
  }
  return value
}

const server = env('GITHUB_SERVER_URL') ?? 'https://github.com'
const repository = required('GITHUB_REPOSITORY')
const runId = env('GITHUB_RUN_ID')

const tis = createClient({
  baseUrl: required('TIS_URL'),
  apiKey: required('TIS_API_KEY'),
  // Say why a record was not accepted (e.g. a revoked key): CI logs are the only place to look.
  debug: (message, detail) => console.error(`tis: ${message}`, detail ?? ''),
})

tis.recordDeployment({
  release: required('RELEASE'),
  environment: env('TIS_ENVIRONMENT') ?? 'production',
  repository,
  commitSha: required('GITHUB_SHA'),
  ...(env('GITHUB_REF_NAME') ? { branch: required('GITHUB_REF_NAME') } : {}),
  ...(runId ? { workflowRunUrl: `${server}/${repository}/actions/runs/${runId}` } : {}),
})

// The SDK never throws: the flush result says whether the server accepted the record.
const result = await tis.close(10_000)
if (result.sent !== 1) {
  console.error('record-deployment: the deployment was not recorded', result)
  process.exit(1)
}
console.log(`recorded deployment of ${repository} ${env('RELEASE')}`)
