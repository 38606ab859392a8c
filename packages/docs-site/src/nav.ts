/** A page as the navigation knows it. */
export interface NavPage {
  /** Built path, e.g. `guides/node.html`. */
  readonly path: string
  readonly title: string
}

/** One group of the sidebar: a heading and its pages, in order. */
export interface NavSection {
  readonly title: string
  readonly pages: readonly NavPage[]
}

/**
 * The sidebar's fixed order: the user's path from a first event to production, then the reference
 * pages. A page not named here is never hidden: top-level pages go to "Reference" and pages in
 * other folders to "More", each sorted by title.
 */
const FIXED: readonly { readonly title: string; readonly match: (path: string) => boolean }[] = [
  { title: 'Getting started', match: (p) => p === 'getting-started.html' },
  { title: 'Self-hosting', match: (p) => p === 'self-hosting.html' },
  { title: 'Security', match: (p) => p === 'security.html' },
  { title: 'Guides', match: (p) => p.startsWith('guides/') },
  { title: 'HTTP API', match: (p) => p === 'http-api.html' },
  { title: 'Embedding', match: (p) => p === 'embedding.html' },
  { title: 'Architecture', match: (p) => p === 'architecture.html' },
  { title: 'Reference', match: (p) => !p.includes('/') },
  { title: 'More', match: () => true },
]

const byTitle = (a: NavPage, b: NavPage) => a.title.localeCompare(b.title)

/** Sorts pages into the sidebar's sections; empty sections are left out. */
export function buildNav(pages: readonly NavPage[]): NavSection[] {
  const left = pages.filter((p) => p.path !== 'index.html')
  const sections: NavSection[] = []
  for (const { title, match } of FIXED) {
    const taken = left.filter((p) => match(p.path))
    for (const page of taken) left.splice(left.indexOf(page), 1)
    if (taken.length > 0) sections.push({ title, pages: taken.sort(byTitle) })
  }
  return sections
}
