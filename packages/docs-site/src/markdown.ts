import { posix } from 'node:path'
import GithubSlugger from 'github-slugger'
import { Marked, type Tokens } from 'marked'
import { escapeHtml, htmlToText } from './html'

/** Where a link of a page points, once resolved against the page's own path. */
export type DocsLink =
  /** Another page of the site (`foo.md` became `foo.html`), or the page itself (`#x`). */
  | {
      readonly kind: 'page'
      readonly href: string
      readonly path: string
      readonly anchor?: string
    }
  /** A file of the repository outside `docs/`, rewritten to its address in the repository. */
  | { readonly kind: 'repo'; readonly href: string; readonly path: string }
  /** The typedoc reference under `api/`, built separately by `pnpm run docs`. */
  | { readonly kind: 'typedoc'; readonly href: string }

/** One Markdown page turned into an HTML fragment. */
export interface RenderedMarkdown {
  readonly html: string
  /** Text of the first heading, if any. */
  readonly title: string | undefined
  /** Every relative link (external `scheme:` links are left alone and not listed). */
  readonly links: readonly DocsLink[]
}

/** Options of {@link renderMarkdown}. */
export interface RenderMarkdownOptions {
  /** The page's path inside the docs directory, POSIX separators, e.g. `guides/node.md`. */
  readonly path: string
  /** Web address of the repository's files, for links that leave `docs/`. */
  readonly repoBlobUrl: string
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i

/**
 * Renders GitHub-flavoured Markdown to HTML: headings get GitHub's ids (github-slugger, as on
 * github.com, so `foo.md#some-heading` works in both places), relative `.md` links point at the
 * built `.html` pages, links out of `docs/` point at the repository, and fenced code keeps its
 * language as `class="language-…"`.
 */
export function renderMarkdown(markdown: string, options: RenderMarkdownOptions): RenderedMarkdown {
  const slugger = new GithubSlugger()
  const links: DocsLink[] = []
  let title: string | undefined
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }: Tokens.Heading) {
        const inner = this.parser.parseInline(tokens)
        const text = htmlToText(inner)
        title ??= text
        return `<h${depth} id="${escapeHtml(slugger.slug(text))}">${inner}</h${depth}>\n`
      },
      link({ href, title: linkTitle, tokens }: Tokens.Link) {
        const target = rewrite(href, options.path, options.repoBlobUrl)
        if (target) links.push(target)
        const titleAttr = linkTitle ? ` title="${escapeHtml(linkTitle)}"` : ''
        const inner = this.parser.parseInline(tokens)
        return `<a href="${escapeHtml(target?.href ?? href)}"${titleAttr}>${inner}</a>`
      },
      code({ text, lang }: Tokens.Code) {
        const language = lang?.match(/^\S+/)?.[0]
        const cls = language ? ` class="language-${escapeHtml(language)}"` : ''
        return `<pre><code${cls}>${escapeHtml(text.replace(/\n$/, ''))}</code></pre>\n`
      },
    },
  })
  // Wide tables scroll inside their own box instead of widening the page.
  const html = marked
    .parse(markdown, { async: false })
    .replaceAll('<table>', '<div class="table-wrap"><table>')
    .replaceAll('</table>', '</table></div>')
  return { html, title, links }
}

/** The built page of a Markdown source path: `guides/node.md` → `guides/node.html`. */
export function pagePath(source: string): string {
  return `${source.replace(/\.md$/, '')}.html`
}

function rewrite(href: string, source: string, repoBlobUrl: string): DocsLink | undefined {
  if (EXTERNAL.test(href)) return undefined
  const hashAt = href.indexOf('#')
  const file = hashAt === -1 ? href : href.slice(0, hashAt)
  const anchor = hashAt === -1 ? undefined : decodeURIComponent(href.slice(hashAt + 1))
  const withAnchor = (path: string) =>
    anchor === undefined ? path : `${path}#${href.slice(hashAt + 1)}`
  if (file === '') {
    return {
      kind: 'page',
      href,
      path: pagePath(source),
      ...(anchor === undefined ? {} : { anchor }),
    }
  }
  const resolved = posix.normalize(posix.join(posix.dirname(source), decodeURI(file)))
  if (resolved.startsWith('../')) {
    const repoPath = resolved.slice(3)
    return { kind: 'repo', href: withAnchor(`${repoBlobUrl}/${repoPath}`), path: repoPath }
  }
  if (resolved === 'api' || resolved.startsWith('api/')) return { kind: 'typedoc', href }
  if (resolved.endsWith('.md')) {
    return {
      kind: 'page',
      href: withAnchor(pagePath(file)),
      path: pagePath(resolved),
      ...(anchor === undefined ? {} : { anchor }),
    }
  }
  return {
    kind: 'repo',
    href: withAnchor(`${repoBlobUrl}/docs/${resolved}`),
    path: `docs/${resolved}`,
  }
}
