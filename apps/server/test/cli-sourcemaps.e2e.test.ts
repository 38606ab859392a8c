import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ADMIN_TOKEN, type Harness, runTis, startPgliteHarness } from '@tis/test-utils/server'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const SENTRY_CLI = fileURLToPath(
  new URL('../node_modules/sentry-cli-2/bin/sentry-cli', import.meta.url),
)

// `tis sourcemaps upload`, `list` and `delete` as a person runs them: child processes talking
// the Sentry upload protocol and the bundle API to a running server, with a bundle injected by
// the real sentry-cli.
describe('tis sourcemaps against a running server', () => {
  let harness: Harness
  let env: Record<string, string>
  let root: string
  let dist: string
  let debugId: string
  let projectId: string

  beforeAll(async () => {
    harness = await startPgliteHarness()
    env = { TIS_TOKEN: ADMIN_TOKEN, TIS_URL: harness.url }
    root = mkdtempSync(join(tmpdir(), 'tis-cli-sourcemaps-'))
    dist = join(root, 'dist')
    await build({
      stdin: {
        contents: "function explode(x) { throw new Error('boom ' + x) }\nexplode(1)",
        loader: 'js',
      },
      bundle: true,
      minify: true,
      sourcemap: true,
      format: 'iife',
      outfile: join(dist, 'assets', 'app.min.js'),
      logLevel: 'silent',
    })
    execFileSync(SENTRY_CLI, ['sourcemaps', 'inject', dist], { stdio: 'pipe' })
    debugId = /\/\/# debugId=(\S+)/.exec(
      readFileSync(join(dist, 'assets', 'app.min.js'), 'utf8'),
    )![1]!
    const created = await runTis(
      ['projects', 'create', 'cli-maps', '--kind', 'javascript', '--json'],
      env,
    )
    expect(created.stderr).toBe('')
    projectId = JSON.parse(created.stdout).project.id
  }, 60_000)

  afterAll(async () => {
    await harness?.close()
    rmSync(root, { recursive: true, force: true })
  })

  const list = async () => {
    const listed = await runTis(['sourcemaps', 'list', '--project', projectId, '--json'], env)
    expect(listed.stderr).toBe('')
    return JSON.parse(listed.stdout).artifact_bundles as Record<string, unknown>[]
  }

  it('uploads an injected bundle, lists it, uploads it again without chunks, and deletes it', async () => {
    const up = await runTis(['sourcemaps', 'upload', dist, '--project', projectId, '--json'], env)
    expect(up.stderr).toBe('')
    expect(up.code).toBe(0)
    const uploaded = JSON.parse(up.stdout)
    expect(uploaded.chunks_sent).toBeGreaterThan(0)
    expect(uploaded.files.map((f: { url: string }) => f.url)).toEqual([
      '~/assets/app.min.js',
      '~/assets/app.min.js.map',
    ])

    const [bundle, ...others] = await list()
    expect(others).toEqual([])
    expect(bundle).toMatchObject({
      bundle_debug_id: uploaded.bundle_debug_id,
      release: null,
      dist: null,
      file_count: 2,
      debug_ids: [debugId],
    })

    const again = await runTis(['sourcemaps', 'upload', dist, '--project', projectId], env)
    expect(again.code).toBe(0)
    expect(again.stdout).toContain(`0 of ${uploaded.chunks} chunks sent`)
    expect(again.stdout).toMatch(new RegExp(`~/assets/app.min.js\\s+minified_source\\s+${debugId}`))
    expect(await list()).toHaveLength(1)

    const deleted = await runTis(
      ['sourcemaps', 'delete', String(bundle!['id']), '--project', projectId],
      env,
    )
    expect(deleted).toMatchObject({
      code: 0,
      stdout: `Deleted source map bundle ${bundle!['id']}.\n`,
    })
    expect(await list()).toEqual([])
    const human = await runTis(['sourcemaps', 'list', '--project', projectId], env)
    expect(human.stdout).toBe('(none)\n')
  })

  it('uploads files without debug IDs for a release, and refuses them without one', async () => {
    const plain = join(root, 'plain')
    mkdirSync(plain)
    writeFileSync(join(plain, 'main.js'), 'a()\n//# sourceMappingURL=main.js.map\n')
    writeFileSync(join(plain, 'main.js.map'), '{"version":3,"sources":["a.ts"],"mappings":"AAAA"}')
    const refused = await runTis(['sourcemaps', 'upload', plain, '--project', projectId], env)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('no debug IDs in')

    const up = await runTis(
      [
        'sourcemaps',
        'upload',
        plain,
        '--project',
        projectId,
        '--release',
        '2.0.0',
        '--dist',
        'web',
        '--url-prefix',
        '~/static',
      ],
      env,
    )
    expect(up.stderr).toBe('')
    expect(up.code).toBe(0)
    expect(await list()).toEqual([
      expect.objectContaining({ release: '2.0.0', dist: 'web', file_count: 2, debug_ids: [] }),
    ])
  })

  it('a wrong token gets 401; a user who may not manage the project is refused (exit 1)', async () => {
    const bad = await runTis(['sourcemaps', 'upload', dist, '--project', projectId], {
      ...env,
      TIS_TOKEN: 'tis_user_not-a-real-token',
    })
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('check TIS_TOKEN')
    const user = await runTis(['users', 'create', 'maps-outsider@tis.test', '--json'], env)
    const token = JSON.parse(user.stdout).access_token as string
    const outsider = { ...env, TIS_TOKEN: token }
    const refused = await runTis(['sourcemaps', 'upload', dist, '--project', projectId], outsider)
    expect(refused.code).toBe(1)
    // The server does not tell outsiders that the project exists.
    expect(refused.stderr).toContain(`Unknown project "${projectId}"`)
    expect(refused.stderr).not.toContain('check TIS_TOKEN')
    const listed = await runTis(['sourcemaps', 'list', '--project', projectId], outsider)
    expect(listed.code).toBe(1)
  })
})
