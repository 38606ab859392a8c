import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const here = fileURLToPath(new URL('.', import.meta.url))
const out = mkdtempSync(join(tmpdir(), 'tis-console-smoke-'))

/** The Node 18 binary from the `node@18` npm package, or `undefined` when it cannot be had. */
function node18(): string | undefined {
  try {
    return execFileSync('npx', ['-y', 'node@18', '-p', 'process.execPath'], {
      encoding: 'utf8',
      timeout: 120_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim()
  } catch {
    return undefined
  }
}

let node18Path: string | undefined
const smoke = join(out, 'console-smoke.mjs')
beforeAll(async () => {
  // One ESM file Node 18 runs as is, @tis/sdk and this package from source.
  await build({
    entryPoints: [join(here, 'smoke', 'console-smoke.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    outfile: smoke,
    conditions: ['@tis/source'],
    logLevel: 'silent',
  })
  node18Path = node18()
}, 180_000)
afterAll(() => rmSync(out, { recursive: true, force: true }))

describe('on Node 18 (vitest 4 itself needs Node 20, so a bundled smoke script runs there)', () => {
  it('passes the smoke script: console instrumentation, its formatting and uninstall', async (ctx) => {
    if (!node18Path) return ctx.skip('the node@18 npm package could not be installed')
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) =>
        execFile(node18Path!, [smoke], { timeout: 30_000 }, (error, stdout, stderr) =>
          resolve({
            code: error ? ((error as { code?: number }).code ?? null) : 0,
            stdout,
            stderr,
          }),
        ),
    )
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/^ok v18\./)
    expect(result.code).toBe(0)
  }, 30_000)
})
