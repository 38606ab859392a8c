import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { DocsSite } from './build'

/** A link that leads nowhere. */
export interface BrokenLink {
  /** The page that has the link. */
  readonly page: string
  readonly href: string
  readonly reason: string
}

/** The `id` attributes of an HTML document: the anchors a `#fragment` may name. */
export function anchorsOf(html: string): Set<string> {
  const ids = new Set<string>()
  for (const match of html.matchAll(/\sid="([^"]*)"/g)) {
    ids.add((match[1] ?? '').replaceAll('&quot;', '"').replaceAll('&amp;', '&'))
  }
  return ids
}

/**
 * Checks every relative link of a built site: a page link must name a built page and, with a
 * `#fragment`, one of its ids; a link out of `docs/` must name a file of the repository at
 * `repoRoot`. Typedoc links (`api/…`) are not checked: that output is built separately.
 */
export function checkLinks(site: DocsSite, repoRoot: string): BrokenLink[] {
  const anchors = new Map(site.pages.map((p) => [p.path, anchorsOf(p.html)]))
  const broken: BrokenLink[] = []
  for (const page of site.pages) {
    const seen = new Set<string>()
    for (const link of page.links) {
      // A link repeated on one page is reported once.
      if (seen.has(link.href)) continue
      seen.add(link.href)
      const report = (reason: string) => broken.push({ page: page.source, href: link.href, reason })
      if (link.kind === 'repo') {
        if (!existsSync(join(repoRoot, ...link.path.split('/')))) report(`no file ${link.path}`)
      } else if (link.kind === 'page') {
        const ids = anchors.get(link.path)
        if (!ids) report(`no page ${link.path}`)
        else if (link.anchor !== undefined && link.anchor !== '' && !ids.has(link.anchor)) {
          report(`no heading #${link.anchor} in ${link.path}`)
        }
      }
    }
  }
  return broken
}
