import { fileURLToPath } from 'node:url'
import { createOpenApiDocument } from '@tis/schema'
import { describe, expect, it } from 'vitest'
import { buildDocsSite, checkLinks } from '../src/index'

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const DOCS_DIR = `${REPO_ROOT}docs`

// The link checker of the real docs: every relative link of every page (and the generated HTTP
// API page) must name a built page and, with a #fragment, one of its heading ids; links out of
// docs/ must name a file of the repository. The server's extra endpoints are checked by the
// server's own docs test, which renders its full OpenAPI document.
describe('docs/ links', () => {
  it('every internal link and anchor resolves', async () => {
    const site = await buildDocsSite({ docsDir: DOCS_DIR, openApi: createOpenApiDocument() })
    const broken = checkLinks(site, REPO_ROOT)
    const list = broken.map((b) => `${b.page}: ${b.href} (${b.reason})`).join('\n')
    expect(list, `broken links:\n${list}`).toBe('')
    expect(site.pages.length).toBeGreaterThan(5)
  })
})
