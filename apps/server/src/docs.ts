import { existsSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { extname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildDocsSite, type DocsSite, type OpenApiDocument } from '@tis/docs-site'
import { Hono } from 'hono'

/** Where the documentation lives, for {@link createDocsApp}. */
export interface DocsAppOptions {
  /**
   * The Markdown sources. The built site is read from `<docsDir>/.site` (written by
   * `pnpm run docs`), the typedoc reference from `<docsDir>/.site/api` or `<docsDir>/api`.
   */
  readonly docsDir: string
  /** Rendered as the HTTP API page when the site is built in memory. */
  readonly openApi: OpenApiDocument
}

/** The repository's `docs/`, from `apps/server/src/` as from the bundled `apps/server/dist/`. */
export const DEFAULT_DOCS_DIR = fileURLToPath(new URL('../../../docs', import.meta.url))

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
}

const contentType = (path: string) =>
  CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream'

const page = (title: string, body: string) =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}<p><a href="/docs/">Documentation home</a></p></main></body></html>\n`

const NOT_FOUND = page('Page not found', '<p>There is no documentation page at this address.</p>')
const NO_TYPEDOC = page(
  'API reference not built',
  '<p>The typedoc API reference is generated, not stored in the repository. Run <code>pnpm run docs</code> in the repository, then reload this page.</p>',
)

/**
 * The site-relative path of a request below `/docs/`, or undefined when it could leave the site:
 * percent-decoded, and refused with any `..`, `.` or empty segment, backslash or NUL.
 */
function sitePath(rawPath: string): string | undefined {
  let path: string
  try {
    path = decodeURIComponent(rawPath)
  } catch {
    return undefined
  }
  if (path === '') return 'index.html'
  if (path.includes('\\') || path.includes('\0')) return undefined
  const segments = (path.endsWith('/') ? `${path}index.html` : path).split('/')
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return undefined
  return segments.join('/')
}

/** Reads `root/path` when it is a file inside `root`. */
async function readInside(root: string, path: string): Promise<Buffer | undefined> {
  const base = resolve(root)
  const file = resolve(base, ...path.split('/'))
  if (!file.startsWith(base + sep)) return undefined
  const info = await stat(file).catch(() => undefined)
  return info?.isFile() ? readFile(file) : undefined
}

/**
 * The documentation at `/docs`: the site `pnpm run docs` built when it is there, else the
 * Markdown built in memory on the first request (so `pnpm start` always has docs), and the
 * typedoc reference at `/docs/api/` — or a page saying how to build it. Mount it at `/docs`.
 */
export function createDocsApp(options: DocsAppOptions): Hono {
  const siteDir = join(options.docsDir, '.site')
  let inMemory: Promise<DocsSite> | undefined
  const app = new Hono()
  const headers = (path: string) => ({
    'Content-Type': contentType(path),
    'X-Content-Type-Options': 'nosniff',
  })
  const notFound = (body: string) => new Response(body, { status: 404, headers: headers('x.html') })

  app.get('/', (c) => c.redirect('/docs/', 301))
  app.get('/*', async (c) => {
    const raw = new URL(c.req.url).pathname.replace(/^\/docs\//, '')
    const path = sitePath(raw)
    if (path === undefined) return notFound(NOT_FOUND)
    const serve = (body: Buffer | string) => c.body(body as never, 200, headers(path))
    if (path.startsWith('api/')) {
      const apiPath = path.slice('api/'.length)
      for (const root of [join(siteDir, 'api'), join(options.docsDir, 'api')]) {
        if (!existsSync(join(root, 'index.html'))) continue
        const file = await readInside(root, apiPath)
        return file ? serve(file) : notFound(NOT_FOUND)
      }
      return notFound(NO_TYPEDOC)
    }
    if (existsSync(join(siteDir, 'index.html'))) {
      const file = await readInside(siteDir, path)
      return file ? serve(file) : notFound(NOT_FOUND)
    }
    if (!existsSync(options.docsDir)) return notFound(NOT_FOUND)
    inMemory ??= buildDocsSite({ docsDir: options.docsDir, openApi: options.openApi })
    const site = await inMemory.catch((error: unknown) => {
      inMemory = undefined
      throw error
    })
    const file = site.files.get(path)
    return file === undefined ? notFound(NOT_FOUND) : serve(file)
  })
  return app
}
