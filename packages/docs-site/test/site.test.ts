import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildDocsSite, checkLinks } from '../src/index'

let root: string
let docs: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'docs-site-'))
  docs = join(root, 'docs')
  await mkdir(join(docs, 'guides'), { recursive: true })
  await mkdir(join(root, 'packages'), { recursive: true })
  await writeFile(join(root, 'packages', 'README.md'), '# packages\n')
})
afterEach(() => rm(root, { recursive: true, force: true }))

const write = (path: string, text: string) => writeFile(join(docs, path), text)

describe('buildDocsSite', () => {
  it('rewrites .md links, keeps anchors, and titles pages from their first heading', async () => {
    await write(
      'getting-started.md',
      '# Getting started\n\nSee [Node](guides/node.md#install-it).\n',
    )
    await write(
      'guides/node.md',
      '# The Node guide\n\n## Install it\n\nBack to [start](../getting-started.md).\n',
    )
    const site = await buildDocsSite({ docsDir: docs })
    const start = site.pages.find((p) => p.path === 'getting-started.html')
    expect(start?.title).toBe('Getting started')
    expect(start?.html).toContain('<a href="guides/node.html#install-it">Node</a>')
    const guide = site.files.get('guides/node.html') ?? ''
    expect(guide).toContain('<h2 id="install-it">Install it</h2>')
    expect(guide).toContain('<a href="../getting-started.html">start</a>')
    expect(guide).toContain('<title>The Node guide · tis documentation</title>')
    expect(guide).toContain('href="../assets/docs.css"')
    expect(guide).toContain(
      '<a class="api-link" href="../api/index.html">API reference (typedoc)</a>',
    )
    expect(checkLinks(site, root)).toEqual([])
  })

  it('orders the sidebar along the user path and lists unknown pages too', async () => {
    for (const [path, title] of [
      ['zebra.md', 'Zebra reference'],
      ['architecture.md', 'Architecture'],
      ['getting-started.md', 'Getting started'],
      ['guides/node.md', 'Node'],
      ['self-hosting.md', 'Self-hosting'],
      ['security.md', 'Security: sessions and access tokens'],
      ['embedding.md', 'Embedding'],
    ] as const) {
      await write(path, `# ${title}\n`)
    }
    await mkdir(join(docs, 'odd'))
    await write('odd/page.md', '# Odd page\n')
    const site = await buildDocsSite({
      docsDir: docs,
      openApi: { info: { title: 't', version: '1' }, paths: {} },
    })
    expect(site.nav.map((s) => s.title)).toEqual([
      'Getting started',
      'Self-hosting',
      'Security',
      'Guides',
      'HTTP API',
      'Embedding',
      'Architecture',
      'Reference',
      'More',
    ])
    const index = site.files.get('index.html') ?? ''
    expect(index).toContain('aria-label="Documentation"')
    expect(index).toContain('href="odd/page.html"')
    expect(site.files.get('zebra.html')).toContain('<a href="zebra.html" aria-current="page">')
  })

  it('reports broken page links, anchors and repository files', async () => {
    await write(
      'a.md',
      '# A\n\n[x](missing.md) [y](b.md#nope) [z](#here) [w](../packages/NOPE.md) [ok](../packages/README.md) [t](api/index.html) [e](https://example.com/x.md)\n\n## Here\n',
    )
    await write('b.md', '# B\n')
    const site = await buildDocsSite({ docsDir: docs })
    expect(checkLinks(site, root).map((b) => `${b.href}: ${b.reason}`)).toEqual([
      'missing.html: no page missing.html',
      'b.html#nope: no heading #nope in b.html',
      'https://github.com/tis-dev/tis/blob/main/packages/NOPE.md: no file packages/NOPE.md',
    ])
  })

  it('writes the site to outDir, escaping code', async () => {
    await write('x.md', '# X\n\n```bash server\necho "<b>" && true\n```\n')
    const out = join(root, 'out')
    await buildDocsSite({ docsDir: docs, outDir: out })
    const html = await readFile(join(out, 'x.html'), 'utf8')
    expect(html).toContain(
      '<pre><code class="language-bash">echo &quot;&lt;b&gt;&quot; &amp;&amp; true</code></pre>',
    )
    expect(await readFile(join(out, 'assets', 'docs.css'), 'utf8')).toContain('.sidebar')
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('href="x.html"')
  })
})
