import { fileURLToPath } from 'node:url'
import { createOpenApiDocument } from '@tis/schema'
import { describe, expect, it } from 'vitest'
import { buildDocsSite, checkLinks } from '../src/index'

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const DOCS_DIR = `${REPO_ROOT}docs`

// The link checker of the real docs: every relative link of every page (and the generated HTTP
// API page) must name a built page and, with a #fragment, one of its heading ids; links out of
// docs/ must name a file of the repository.
describe('docs/ links', () => {
  it('every internal link and anchor resolves', async () => {
    const site = await buildDocsSite({ docsDir: DOCS_DIR, openApi: createOpenApiDocument() })
    // Anchors into the HTTP API page are checked by the server's test, which renders its whole
    // document (the schema's endpoints plus the server's extensions); here only the schema's are.
    const broken = checkLinks(site, REPO_ROOT).filter(
      (b) => !b.reason.startsWith('no heading') || !b.reason.endsWith(' in http-api.html'),
    )
    const list = broken.map((b) => `${b.page}: ${b.href} (${b.reason})`).join('\n')
    expect(list, `broken links:\n${list}`).toBe('')
    expect(site.pages.length).toBeGreaterThan(5)
  })
})
