import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runScript } from '@tis/test-utils/run-script'
import { startTisServer, type TisServer } from '@tis/test-utils/tis-server'
import { afterAll, beforeAll, expect, it } from 'vitest'

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url))

let tis: TisServer
let dir: string

beforeAll(async () => {
  tis = await startTisServer()
  dir = await mkdtemp(join(tmpdir(), 'example-cron-'))
})
afterAll(async () => {
  await tis?.stop()
  if (dir) await rm(dir, { recursive: true, force: true })
})

type Monitor = { slug: string; status: string; health: string | null; check_in_count: number }

// The job runs as cron would run it: a fresh process that exits when done.
it('checks in ok after a successful run, then error after a failed one', async () => {
  const { projectId, apiKey } = await tis.createProjectWithKey('example-cron')
  const env = { TIS_URL: tis.url, TIS_API_KEY: apiKey, TIS_ENVIRONMENT: 'test' }
  const monitors = async () =>
    (await tis.read(`/api/v1/projects/${projectId}/monitors`)).monitors as Monitor[]

  await writeFile(join(dir, 'orders.csv'), 'id,total\n1,9.99\n')
  const ok = await runScript(MAIN, [], { env: { ...env, EXPORT_DIR: dir } })
  expect(ok).toMatchObject({ code: 0, stdout: 'summarized 1 files (16 bytes)\n' })
  expect(await monitors()).toEqual([
    expect.objectContaining({
      slug: 'nightly-export-summary',
      status: 'ok',
      health: 'ok',
      check_in_count: 1,
    }),
  ])

  const failed = await runScript(MAIN, [], { env: { ...env, EXPORT_DIR: join(dir, 'missing') } })
  expect(failed.code).toBe(1)
  expect(failed.stderr).toMatch(/failed: ENOENT/)
  expect(await monitors()).toEqual([
    expect.objectContaining({ status: 'error', health: 'error', check_in_count: 2 }),
  ])
  const { issues } = await tis.read(`/api/v1/projects/${projectId}/issues`)
  expect(issues).toEqual([expect.objectContaining({ title: expect.stringMatching(/ENOENT/) })])
})
