import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { afterAll, expect, it } from 'vitest'

const SENTRY_CLI = fileURLToPath(
  new URL('../../../apps/server/node_modules/sentry-cli-3/bin/sentry-cli', import.meta.url),
)
const dir = mkdtempSync(join(tmpdir(), 'tis-debug-ids-node-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// Captures one error from the injected bundle and prints the event the transport is given.
const SCRIPT = `import { createClient, debugIdsIntegration } from './tis.mjs'
import { explode } from './app/server.mjs'
const transport = {
  async send(request) { console.log(request.body); return { status: 'sent', statusCode: 201 } },
  flush: async () => ({ sent: 1, duplicates: 0, dropped: {}, pending: 0 }),
}
const client = createClient({ baseUrl: 'https://tis.example', apiKey: 'k', transport, autoFlush: false,
  integrations: [debugIdsIntegration()] })
try { explode() } catch (error) { client.captureException(error) }
await client.flush()
`

// The integration has no DOM dependency: in a plain Node process (not vitest's module runner,
// which rewrites stacks), an ESM bundle injected by sentry-cli 3 throws, and the event names
// the bundle's file URL, as V8 prints it, with the injected ID.
it('sends the debug ID of a Node bundle injected by sentry-cli 3', async () => {
  const app = join(dir, 'app', 'server.mjs')
  await build({
    stdin: { contents: "export function explode() { throw new Error('node boom') }", loader: 'js' },
    bundle: true,
    minify: true,
    sourcemap: true,
    format: 'esm',
    platform: 'node',
    outfile: app,
    logLevel: 'silent',
  })
  execFileSync(SENTRY_CLI, ['sourcemaps', 'inject', join(dir, 'app')], { stdio: 'pipe' })
  const debugId = /\/\/# debugId=(\S+)/.exec(readFileSync(app, 'utf8'))![1]!
  await build({
    stdin: {
      contents: `export * from '@tis/sdk'\nexport * from './src/index.ts'`,
      resolveDir: fileURLToPath(new URL('..', import.meta.url)),
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    conditions: ['@tis/source'],
    outfile: join(dir, 'tis.mjs'),
    logLevel: 'silent',
  })
  writeFileSync(join(dir, 'main.mjs'), SCRIPT)
  const out = execFileSync(process.execPath, [join(dir, 'main.mjs')], { encoding: 'utf8' })
  const event = JSON.parse(out).event
  expect(event.context.exception.frames[0].filename).toBe(pathToFileURL(app).href)
  expect(event.context.debug_meta).toEqual({
    images: [{ type: 'sourcemap', code_file: pathToFileURL(app).href, debug_id: debugId }],
  })
})
