import { fileURLToPath } from 'node:url'
import { runScript } from '@tis/test-utils/run-script'
import { startTisServer, type TisServer } from '@tis/test-utils/tis-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const SCRIPT = fileURLToPath(new URL('../src/record-deployment.ts', import.meta.url))
const DEPLOY_SH = fileURLToPath(new URL('../deploy.sh', import.meta.url))
const hasCurl = (await runScript('curl', ['--version'])).code === 0

let tis: TisServer
beforeAll(async () => {
  tis = await startTisServer()
})
afterAll(() => tis?.stop())

/** A fresh project and the environment GitHub Actions would give the script. */
async function ciEnvironment(release: string) {
  const { projectId, apiKey } = await tis.createProjectWithKey('example-deploy')
  const env = {
    TIS_URL: tis.url,
    TIS_API_KEY: apiKey,
    TIS_ENVIRONMENT: 'staging',
    RELEASE: release,
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_SHA: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
    GITHUB_REF_NAME: 'main',
    GITHUB_RUN_ID: '42',
  }
  const deployments = async () =>
    (await tis.read(`/api/v1/projects/${projectId}/deployments`)).deployments
  return { env, deployments }
}

const expected = (release: string, more: Record<string, unknown> = {}) =>
  expect.objectContaining({
    ...more,
    repository: 'acme/shop',
    environment: 'staging',
    release,
    commit_sha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
    branch: 'main',
    source: 'api',
  })

describe('the Node script (@tis/sdk recordDeployment)', () => {
  it('records the deployment', async () => {
    const { env, deployments } = await ciEnvironment('v1.4.0')
    const run = await runScript(SCRIPT, [], { env })
    expect(run).toMatchObject({ code: 0, stdout: 'recorded deployment of acme/shop v1.4.0\n' })
    expect(await deployments()).toEqual([
      expected('v1.4.0', { workflow_run_url: 'https://github.com/acme/shop/actions/runs/42' }),
    ])
  })

  it('fails the CI step when tis refuses the key', async () => {
    const { env, deployments } = await ciEnvironment('v1.4.1')
    const run = await runScript(SCRIPT, [], { env: { ...env, TIS_API_KEY: 'not-a-key' } })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/not recorded/)
    expect(await deployments()).toEqual([])
  })
})

describe.skipIf(!hasCurl)('deploy.sh (curl)', () => {
  it('records the deployment', async () => {
    const { env, deployments } = await ciEnvironment('v2.0.0')
    const run = await runScript(DEPLOY_SH, [], { env })
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'accepted' })
    expect(await deployments()).toEqual([expected('v2.0.0')])
  })

  it('sends no branch when GITHUB_REF_NAME is unset (null, not an empty string)', async () => {
    const { env, deployments } = await ciEnvironment('v2.0.2')
    const { GITHUB_REF_NAME: _, ...noBranch } = env
    const run = await runScript(DEPLOY_SH, [], { env: noBranch })
    expect(run.code).toBe(0)
    expect(await deployments()).toEqual([
      expect.objectContaining({ release: 'v2.0.2', branch: null }),
    ])
  })

  it('fails the CI step when tis refuses the key', async () => {
    const { env, deployments } = await ciEnvironment('v2.0.1')
    const run = await runScript(DEPLOY_SH, [], { env: { ...env, TIS_API_KEY: 'not-a-key' } })
    expect(run.code).toBe(22)
    expect(run.stdout).toMatch(/Unauthorized/)
    expect(await deployments()).toEqual([])
  })
})
if (!hasCurl) {
  it.skip('deploy.sh: curl is not installed (apt-get install curl)', () => {})
}
