import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runScript, type ScriptResult } from './run-script'

// The structure checks of `pnpm test` (`pnpm check:structure`), run on small workspaces written
// here: they fail on what they must catch and pass on a clean layering.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const DEPCRUISE = join(ROOT, 'node_modules/.bin/depcruise')
const CONFIG = join(ROOT, '.dependency-cruiser.cjs')
const FILE_SIZES = join(ROOT, 'packages/tsconfig/bin/check-file-sizes.js')

const dirs: string[] = []
/** A throwaway workspace holding `files` (path → text). */
function workspace(files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tis-structure-'))
  dirs.push(dir)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

const cruise = (dir: string) =>
  runScript(DEPCRUISE, ['--config', CONFIG, 'packages', 'apps'], { cwd: dir, timeoutMs: 60_000 })
const imports = (path: string) => `import { x } from '${path}'\nexport const y = x\n`
const value = 'export const x = 1\n'

describe('the import-graph check (dependency-cruiser)', () => {
  let result: ScriptResult
  beforeAll(async () => {
    const dir = workspace({
      'packages/ingest/src/a.ts': `import type { B } from './b'\nexport type A = B\n`,
      'packages/ingest/src/b.ts': `import type { A } from './a'\nexport type B = A | 1\n`,
      'packages/schema/src/s.ts': imports('../../ingest/src/c'),
      'packages/ingest/src/c.ts': imports('../../storage-postgres/src/p'),
      'packages/storage-postgres/src/p.ts': imports('../../dashboard/src/d'),
      'packages/dashboard/src/d.ts': imports('../../../apps/server/src/main'),
      'packages/sdk/test/e2e.test.ts': imports('../../ingest/src/c'),
      'packages/analytics-clickhouse/src/w.ts': imports('../../test-utils/src/harness'),
      'packages/test-utils/src/harness.ts': value,
      'apps/server/src/main.ts': value,
    })
    result = await cruise(dir)
  }, 60_000)

  it('fails', () => {
    expect(result.code).not.toBe(0)
  })

  it.each([
    ['an import circle', 'no-circular: packages/ingest/src/a.ts'],
    ['schema importing ingest', 'schema-is-innermost: packages/schema/src/s.ts'],
    ['ingest importing an adapter', 'ingest-imports-only-schema: packages/ingest/src/c.ts'],
    ['an adapter importing another', 'adapters-import-inward: packages/storage-postgres/src/p.ts'],
    ['a package importing an app', 'packages-never-import-apps: packages/dashboard/src/d.ts'],
    ['an SDK test importing the engine', 'sdk-never-imports-server: packages/sdk/test/e2e'],
    ['shipped code importing the harness', 'only-tests-import-test-utils: packages/analytics'],
  ])('names %s', (_rule, line) => {
    expect(result.stdout).toContain(line)
  })

  it('passes on imports along the layering', async () => {
    const dir = workspace({
      'apps/server/src/main.ts': imports('../../../packages/storage-postgres/src/p'),
      'packages/storage-postgres/src/p.ts': imports('../../ingest/src/c'),
      'packages/storage-postgres/test/p.test.ts': imports('../../test-utils/src/harness'),
      'packages/dashboard/test/pages.test.ts': imports('../../storage-postgres/src/p'),
      'packages/ingest/src/c.ts': imports('../../schema/src/s'),
      'packages/schema/src/s.ts': value,
      'packages/sdk/src/client.ts': imports('../../schema/src/s'),
      'packages/sdk/test/e2e.test.ts': imports('../../test-utils/src/harness'),
      'packages/test-utils/src/harness.ts': imports('../../../apps/server/src/main'),
    })
    const clean = await cruise(dir)
    expect(clean.stdout).toContain('no dependency violations found')
    expect(clean.code).toBe(0)
  }, 60_000)
})

describe('the file-size check', () => {
  const lines = (n: number) => 'export const x = 1\n'.repeat(n)

  it('fails on a source file over 300 lines, naming it', async () => {
    const dir = workspace({
      'packages/a/src/long.ts': lines(301),
      'apps/b/src/fine.tsx': lines(300),
    })
    const result = await runScript(process.execPath, [FILE_SIZES, dir])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('packages/a/src/long.ts: 301 lines')
    expect(result.stderr).not.toContain('fine.tsx')
  })

  it('passes at 300 lines, and on long tests and files outside src', async () => {
    const dir = workspace({
      'packages/a/src/fine.ts': lines(300),
      'packages/a/src/long.test.ts': lines(400),
      'packages/a/test/long.ts': lines(400),
    })
    const result = await runScript(process.execPath, [FILE_SIZES, dir])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
  })

  it('lets an index.ts of re-exports only run long, but not one that also declares something', async () => {
    const reExports = (n: number) =>
      `// the package's surface\n${Array.from({ length: n }, (_, i) => `export { a${i} } from './m${i}'`).join('\n')}\n`
    const dir = workspace({
      'packages/a/src/index.ts': reExports(400),
      'packages/b/src/index.ts': `${reExports(400)}export const x = 1\n`,
    })
    const result = await runScript(process.execPath, [FILE_SIZES, dir])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('packages/b/src/index.ts: 402 lines')
    expect(result.stderr).not.toContain('packages/a/src/index.ts')
  })
})
