// `pnpm run docs`, after typedoc: builds docs/**/*.md and the server's OpenAPI document into
// docs/.site/ (gitignored), copies the typedoc output (docs/api/) to docs/.site/api/, and fails
// when a link checker finds a broken internal link. The server serves docs/.site/ at /docs.
// The build lives here, not in @tis/docs-site, because only the server has its whole OpenAPI
// document (the schema's endpoints plus its own extensions) and packages never import apps.

import { existsSync } from 'node:fs'
import { cp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildDocsSite, checkLinks } from '@tis/docs-site'
import { DEFAULT_DOCS_DIR } from '../src/docs'
import { serverOpenApiDocument } from '../src/openapi'

const started = performance.now()
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))
const outDir = join(DEFAULT_DOCS_DIR, '.site')
await rm(outDir, { recursive: true, force: true })
const site = await buildDocsSite({
  docsDir: DEFAULT_DOCS_DIR,
  outDir,
  openApi: serverOpenApiDocument(),
})
const typedoc = join(DEFAULT_DOCS_DIR, 'api')
const withTypedoc = existsSync(join(typedoc, 'index.html'))
if (withTypedoc) await cp(typedoc, join(outDir, 'api'), { recursive: true })
const broken = checkLinks(site, repoRoot)
const ms = Math.round(performance.now() - started)
console.log(
  `docs: ${site.pages.length} pages${withTypedoc ? ' and the typedoc reference' : ' (no typedoc output in docs/api)'} in ${outDir} (${ms} ms)`,
)
if (broken.length > 0) {
  console.error(`docs: ${broken.length} broken link(s):`)
  for (const b of broken) console.error(`  ${b.page}: ${b.href} (${b.reason})`)
  process.exitCode = 1
}
