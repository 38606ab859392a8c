import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import { DOCS_CSS, renderLayout, SITE_NAME } from './layout'
import { type DocsLink, pagePath, renderMarkdown } from './markdown'
import { buildNav, type NavSection } from './nav'
import type { OpenApiDocument } from './openapi'
import { openApiToMarkdown } from './openapi-page'

/** Options of {@link buildDocsSite}. */
export interface BuildDocsSiteOptions {
  /** The Markdown sources: every `**\/*.md` below it becomes a page (`api/` and dot folders skipped). */
  readonly docsDir: string
  /** When given, the site is also written there (folders created as needed). */
  readonly outDir?: string
  /**
   * The OpenAPI document to render as `http-api.html` (the server's full document, with its
   * extensions). Without it there is no HTTP API page unless `docs/http-api.md` exists.
   */
  readonly openApi?: OpenApiDocument
  /**
   * Web address of the repository's files; links that leave `docs/` point there.
   * @default 'https://github.com/tis-dev/tis/blob/main'
   */
  readonly repoBlobUrl?: string
}

/** One built page. */
export interface DocsPage {
  /** Path inside the site, e.g. `guides/node.html`. */
  readonly path: string
  /** Markdown source inside the docs directory (`http-api.md` for the generated page). */
  readonly source: string
  readonly title: string
  readonly html: string
  /** The relative links the page's Markdown made. */
  readonly links: readonly DocsLink[]
}

/** A built site, held in memory. */
export interface DocsSite {
  readonly pages: readonly DocsPage[]
  /** Every file of the site, pages and stylesheet, by path inside the site. */
  readonly files: ReadonlyMap<string, string>
  readonly nav: readonly NavSection[]
}

const DEFAULT_REPO_BLOB_URL = 'https://github.com/tis-dev/tis/blob/main'

async function findMarkdown(dir: string, root = dir): Promise<string[]> {
  const found: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue
    const full = join(dir, entry.name)
    const path = relative(root, full).split(sep).join('/')
    if (entry.isDirectory() && path !== 'api') found.push(...(await findMarkdown(full, root)))
    else if (entry.isFile() && entry.name.endsWith('.md')) found.push(path)
  }
  return found.sort()
}

function indexContent(nav: readonly NavSection[]): string {
  const start = nav.some((s) => s.pages.some((p) => p.path === 'getting-started.html'))
    ? ' New here? Start with [Getting started](getting-started.md).'
    : ''
  const sections = nav
    .map((s) => {
      const items = s.pages.map((p) => `- [${p.title}](${p.path.replace(/\.html$/, '.md')})`)
      return `## ${s.title}\n\n${items.join('\n')}\n`
    })
    .join('\n')
  return `# ${SITE_NAME}\n\ntis is a self-hosted telemetry ingestion service with TypeScript SDKs.${start}\n\n${sections}`
}

/**
 * Builds `docs/**\/*.md` (and, given an OpenAPI document, the HTTP API page) into a static HTML
 * site: one page per source with a sidebar, an index page listing everything, and one stylesheet.
 * Works offline and holds the result in memory; writes it when `outDir` is set.
 */
export async function buildDocsSite(options: BuildDocsSiteOptions): Promise<DocsSite> {
  const repoBlobUrl = options.repoBlobUrl ?? DEFAULT_REPO_BLOB_URL
  const sources = new Map<string, string>()
  for (const path of await findMarkdown(options.docsDir)) {
    sources.set(path, await readFile(join(options.docsDir, path), 'utf8'))
  }
  if (options.openApi && !sources.has('http-api.md')) {
    sources.set('http-api.md', openApiToMarkdown(options.openApi))
  }
  const rendered = [...sources].map(([source, markdown]) => {
    const result = renderMarkdown(markdown, { path: source, repoBlobUrl })
    return { ...result, source, path: pagePath(source), title: result.title ?? source }
  })
  const nav = buildNav(rendered)
  if (!sources.has('index.md')) {
    const source = 'index.md'
    const result = renderMarkdown(indexContent(nav), { path: source, repoBlobUrl })
    rendered.push({ ...result, source, path: 'index.html', title: SITE_NAME })
  }
  const pages: DocsPage[] = rendered.map((page) => {
    const generated = page.source === 'http-api.md' && options.openApi !== undefined
    const html = renderLayout({
      path: page.path,
      title: page.title,
      content: page.html,
      nav,
      ...(page.source === 'index.md' || generated
        ? {}
        : { sourceUrl: `${repoBlobUrl}/docs/${page.source}` }),
    })
    return { path: page.path, source: page.source, title: page.title, html, links: page.links }
  })
  const files = new Map<string, string>([['assets/docs.css', DOCS_CSS]])
  for (const page of pages) files.set(page.path, page.html)
  if (options.outDir) {
    for (const [path, content] of files) {
      const target = join(options.outDir, ...path.split('/'))
      await mkdir(dirname(target), { recursive: true })
      await writeFile(target, content)
    }
  }
  return { pages, files, nav }
}
