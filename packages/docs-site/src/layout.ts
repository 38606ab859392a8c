import { posix } from 'node:path'
import { escapeHtml } from './html'
import type { NavSection } from './nav'

/** What {@link renderLayout} puts around a page's content. */
export interface LayoutOptions {
  /** Built path of the page, e.g. `guides/node.html`; links are made relative to it. */
  readonly path: string
  readonly title: string
  /** The page's HTML fragment. */
  readonly content: string
  readonly nav: readonly NavSection[]
  /** Where the Markdown source can be read, shown at the foot of the page. */
  readonly sourceUrl?: string
}

/** The site's name in titles and the header. */
export const SITE_NAME = 'tis documentation'

/** Path of the typedoc reference's entry page inside the site. */
export const TYPEDOC_INDEX = 'api/index.html'

function relative(from: string, to: string): string {
  return posix.relative(posix.dirname(`/${from}`), `/${to}`) || posix.basename(to)
}

function renderNav(options: LayoutOptions): string {
  const link = (path: string, title: string) => {
    const current = path === options.path ? ' aria-current="page"' : ''
    return `<a href="${escapeHtml(relative(options.path, path))}"${current}>${escapeHtml(title)}</a>`
  }
  const items = options.nav.map((section) => {
    const only = section.pages[0]
    // A section of one page is that page's link, under the section's name.
    if (section.pages.length === 1 && only) return `<li>${link(only.path, section.title)}</li>`
    const pages = section.pages.map((p) => `<li>${link(p.path, p.title)}</li>`).join('')
    return `<li><span class="nav-section">${escapeHtml(section.title)}</span><ul>${pages}</ul></li>`
  })
  return `<nav class="sidebar" aria-label="Documentation"><ul>${items.join('')}</ul></nav>`
}

/** A whole HTML document: header, sidebar navigation, the page, and the typedoc link. */
export function renderLayout(options: LayoutOptions): string {
  const rel = (to: string) => escapeHtml(relative(options.path, to))
  const title =
    options.title === SITE_NAME ? SITE_NAME : `${escapeHtml(options.title)} · ${SITE_NAME}`
  const source = options.sourceUrl
    ? `<p><a href="${escapeHtml(options.sourceUrl)}">Page source</a></p>`
    : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${rel('assets/docs.css')}">
</head>
<body>
<a class="skip-link" href="#content">Skip to content</a>
<header class="site-header">
<a class="brand" href="${rel('index.html')}">${SITE_NAME}</a>
<a class="api-link" href="${rel(TYPEDOC_INDEX)}">API reference (typedoc)</a>
</header>
<div class="layout">
${renderNav(options)}
<main id="content" tabindex="-1">
${options.content}
</main>
</div>
<footer class="site-footer">
<p>See also the <a href="${rel(TYPEDOC_INDEX)}">API reference (typedoc)</a> of every package.</p>
${source}
</footer>
</body>
</html>
`
}

/** The site's only stylesheet: readable text, a sidebar on wide screens, no framework. */
export const DOCS_CSS = `:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #ffffff;
  --panel: #f6f8fa; --border: #d0d7de; --link: #0550ae; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117;
  --panel: #161b22; --border: #30363d; --link: #4493f8; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  background: var(--bg); }
a { color: var(--link); }
a:focus-visible, main:focus-visible { outline: 2px solid var(--link); outline-offset: 2px; }
.skip-link { position: absolute; left: -999px; top: 0; padding: .5rem 1rem; background: var(--panel); }
.skip-link:focus { left: 0; z-index: 1; }
.site-header { display: flex; gap: 1.5rem; align-items: baseline; padding: .75rem 1.5rem;
  border-bottom: 1px solid var(--border); }
.brand { font-weight: 700; font-size: 1.15rem; text-decoration: none; color: var(--fg); }
.api-link { margin-left: auto; }
.layout { display: flex; max-width: 84rem; margin: 0 auto; }
.sidebar { flex: 0 0 16rem; padding: 1rem 1.5rem; border-right: 1px solid var(--border); }
.sidebar ul { list-style: none; margin: 0; padding: 0; }
.sidebar ul ul { padding-left: .75rem; margin-bottom: .5rem; }
.sidebar li { margin: .2rem 0; }
.sidebar a { text-decoration: none; }
.sidebar a[aria-current="page"] { font-weight: 700; color: var(--fg); }
.nav-section { display: block; margin-top: .5rem; font-weight: 600; color: var(--muted); }
main { flex: 1; min-width: 0; padding: 1rem 2rem 3rem; }
h1, h2, h3, h4 { line-height: 1.25; margin: 1.6em 0 .6em; }
h1 { margin-top: .5em; }
code { font: .9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--panel);
  padding: .1em .3em; border-radius: 4px; }
pre { background: var(--panel); border: 1px solid var(--border); border-radius: 6px; padding: 1rem;
  overflow-x: auto; }
pre code { background: none; padding: 0; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid var(--border); padding: .35rem .6rem; text-align: left; vertical-align: top; }
th { background: var(--panel); }
blockquote { margin: 1rem 0; padding: 0 1rem; border-left: 4px solid var(--border); color: var(--muted); }
.site-footer { border-top: 1px solid var(--border); padding: 1rem 1.5rem; color: var(--muted);
  font-size: .9rem; }
@media (max-width: 48rem) { .layout { display: block; } .sidebar { border-right: 0;
  border-bottom: 1px solid var(--border); } main { padding: 1rem; } }
`
