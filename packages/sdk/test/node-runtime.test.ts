import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mangleProps } from '../mangle'

const here = fileURLToPath(new URL('.', import.meta.url))
const out = mkdtempSync(join(tmpdir(), 'tis-sdk-smoke-'))

/** Bundles a smoke script (SDK source included) into one ESM file Node 18 runs as is. */
async function bundle(name: string) {
  const outfile = join(out, `${name}.mjs`)
  await build({
    entryPoints: [join(here, 'smoke', `${name}.ts`)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    mangleProps,
    outfile,
    // the SDK from source, as the workspace resolves it
    conditions: ['@tis/source'],
    logLevel: 'silent',
  })
  return outfile
}

function run(node: string, args: string[], timeout = 30_000) {
  return new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>(
    (resolve) => {
      const started = Date.now()
      execFile(node, args, { timeout }, (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? null) : 0
        resolve({
          code: typeof code === 'number' ? code : null,
          stdout,
          stderr,
          ms: Date.now() - started,
        })
      })
    },
  )
}

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
let smoke: string
let exitScript: string
beforeAll(async () => {
  smoke = await bundle('smoke')
  exitScript = await bundle('exit')
  node18Path = node18()
}, 180_000)
afterAll(() => rmSync(out, { recursive: true, force: true }))

describe('on Node 18 (vitest 4 itself needs Node 20, so a bundled smoke script runs there)', () => {
  it('passes the smoke script: every capture, retry, 429 and 401 path', async (ctx) => {
    if (!node18Path) return ctx.skip('the node@18 npm package could not be installed')
    const result = await run(node18Path, [smoke])
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/^ok v18\./)
    expect(result.code).toBe(0)
  }, 30_000)
})

describe('process exit', () => {
  let server: Server
  let url: string
  const seen: string[] = []
  let status = 201
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = ''
      req.on('data', (c) => {
        body += c
      })
      req.on('end', () => {
        seen.push(body)
        res.writeHead(status).end('{}')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  const runtimes = () => [
    ['current Node', process.execPath],
    ['Node 18', node18Path],
  ]

  it('delivers unflushed records on beforeExit and exits by itself', async () => {
    for (const [, node] of runtimes()) {
      if (!node) continue
      seen.length = 0
      status = 201
      const result = await run(node, [exitScript, url, '3'])
      expect(result.code).toBe(0)
      expect(seen).toHaveLength(3)
    }
  }, 30_000)

  it('does not hang when the server keeps failing (bounded by the exit flush)', async () => {
    for (const [, node] of runtimes()) {
      if (!node) continue
      status = 503
      const result = await run(node, [exitScript, url, '1'])
      expect(result.code).toBe(0)
      expect(result.ms).toBeLessThan(5000)
    }
  }, 30_000)

  it('does not keep the process alive when the server is unreachable', async () => {
    const result = await run(process.execPath, [exitScript, 'http://127.0.0.1:9', '1'])
    expect(result.code).toBe(0)
    expect(result.ms).toBeLessThan(5000)
  })
})
