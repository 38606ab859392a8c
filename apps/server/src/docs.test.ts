import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildDocsSite, checkLinks } from '@tis/docs-site'
import { Hono } from 'hono'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fakeEngine } from '../test/support/fake-engine'
import { createApp } from './app'
import { createDocsApp, DEFAULT_DOCS_DIR } from './docs'
import { createLogger } from './logger'
import { serverOpenApiDocument } from './openapi'

let root: string
let docsDir: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'server-docs-'))
  docsDir = join(root, 'docs')
  await mkdir(join(docsDir, 'guides'), { recursive: true })
  await writeFile(join(root, 'secret.txt'), 'TOP SECRET')
  await writeFile(
    join(docsDir, 'getting-started.md'),
    '# Getting started\n\nSee [the API](http-api.md).\n',
  )
  await writeFile(join(docsDir, 'guides', 'node.md'), '# Node\n')
})
afterEach(() => rm(root, { recursive: true, force: true }))

function docsApp() {
  const app = new Hono()
  app.route('/docs', createDocsApp({ docsDir, openApi: serverOpenApiDocument() }))
  return app
}

describe('/docs', () => {
  it('builds the Markdown in memory when no site was built, with the server’s HTTP API page', async () => {
    const app = docsApp()
    const bare = await app.request('/docs')
    expect(bare.status).toBe(301)
    expect(bare.headers.get('location')).toBe('/docs/')
    const index = await app.request('/docs/')
    expect(index.status).toBe(200)
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await index.text()).toContain('href="guides/node.html"')
    const api = await (await app.request('/docs/http-api.html')).text()
    // A management endpoint: only the server's extensions document it.
    expect(api).toContain('<code>POST /api/v1/projects</code>')
    const css = await app.request('/docs/assets/docs.css')
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
    const guide = await app.request('/docs/guides/node.html')
    expect(await guide.text()).toContain('<h1 id="node">Node</h1>')
  })

  it('answers unknown pages with an HTML 404, and /docs/api/ with how to build typedoc', async () => {
    const app = docsApp()
    const missing = await app.request('/docs/nope.html')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const typedoc = await app.request('/docs/api/')
    expect(typedoc.status).toBe(404)
    expect(await typedoc.text()).toContain('pnpm run docs')
  })

  it('serves the built site and the typedoc output from disk when present', async () => {
    await mkdir(join(docsDir, '.site', 'assets'), { recursive: true })
    await writeFile(join(docsDir, '.site', 'index.html'), '<p>built site</p>')
    await mkdir(join(docsDir, 'api', 'assets'), { recursive: true })
    await writeFile(join(docsDir, 'api', 'index.html'), '<p>typedoc</p>')
    await writeFile(join(docsDir, 'api', 'assets', 'main.js'), 'void 0')
    const app = docsApp()
    expect(await (await app.request('/docs/')).text()).toBe('<p>built site</p>')
    // Pages are not built in memory once a site is on disk.
    expect((await app.request('/docs/guides/node.html')).status).toBe(404)
    expect(await (await app.request('/docs/api/')).text()).toBe('<p>typedoc</p>')
    const script = await app.request('/docs/api/assets/main.js')
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect((await app.request('/docs/api/nope.html')).status).toBe(404)
  })

  it.each([
    '/docs/..%2fsecret.txt',
    '/docs/%2e%2e/secret.txt',
    '/docs/%2E%2E%2F%2E%2E%2Fsecret.txt',
    '/docs/guides/..%2f..%2fsecret.txt',
    '/docs/api/..%2f..%2fsecret.txt',
    '/docs/api/%2e%2e/%2e%2e/secret.txt',
    '/docs/..%5csecret.txt',
    '/docs/%00',
    '/docs/%zz',
    '/docs//etc/passwd',
    '/docs/.site/..%2f..%2fsecret.txt',
  ])('refuses to leave the docs: %s', async (path) => {
    // Both ways of serving: from disk (a built site and typedoc) and in memory.
    for (const built of [false, true]) {
      if (built) {
        await mkdir(join(docsDir, '.site'), { recursive: true })
        await writeFile(join(docsDir, '.site', 'index.html'), 'built')
        await mkdir(join(docsDir, 'api'), { recursive: true })
        await writeFile(join(docsDir, 'api', 'index.html'), 'typedoc')
      }
      const response = await docsApp().request(path)
      expect(response.status).toBe(404)
      expect(await response.text()).not.toContain('TOP SECRET')
    }
  })

  it('is mounted by the app without shadowing the dashboard or the API', async () => {
    const logger = createLogger({ level: 'silent', write: () => {} })
    const { engine } = fakeEngine()
    const app = createApp({ engine, logger, trustedProxies: [], docsDir })
    expect((await app.request('/docs/')).status).toBe(200)
    const home = await app.request('/')
    expect(home.status).toBe(303)
    expect(home.headers.get('location')).toMatch(/\/login$/)
    expect((await app.request('/api/v1/openapi.json')).headers.get('content-type')).toBe(
      'application/json',
    )
  })
})

describe('the repository docs', () => {
  it('have no broken internal link with the server’s whole OpenAPI document', async () => {
    const site = await buildDocsSite({
      docsDir: DEFAULT_DOCS_DIR,
      openApi: serverOpenApiDocument(),
    })
    const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))
    const broken = checkLinks(site, repoRoot).map((b) => `${b.page}: ${b.href} (${b.reason})`)
    expect(broken.join('\n')).toBe('')
    expect(site.pages.some((p) => p.path === 'http-api.html')).toBe(true)
  })
})
