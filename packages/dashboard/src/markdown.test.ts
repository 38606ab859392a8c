import { describe, expect, it } from 'vitest'
import { Markdown } from './markdown'

const html = (text: string) => String(Markdown({ text }))

describe('Markdown', () => {
  it('renders paragraphs, breaks, code, emphasis, lists and fenced code', () => {
    expect(html('Hello **bold** and *it* with `x < y`\nnext line\n\n- one\n- two')).toBe(
      '<div class="markdown"><p>Hello <strong>bold</strong> and <em>it</em> with <code>x &lt; y</code><br/>next line</p><ul><li>one</li><li>two</li></ul></div>',
    )
    expect(html('Run:\n```sh\nrm -rf <dir>\n```\ndone')).toBe(
      '<div class="markdown"><p>Run:</p><pre><code>rm -rf &lt;dir&gt;</code></pre><p>done</p></div>',
    )
  })

  it('never lets HTML through, and links only to http, https and mailto', () => {
    const evil = html('<script>alert(1)</script> <img src=x onerror=alert(1)>')
    expect(evil).not.toContain('<script')
    expect(evil).not.toContain('<img')
    expect(evil).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html('[docs](https://tis.dev/a?b=1&c=2)')).toContain(
      '<a href="https://tis.dev/a?b=1&amp;c=2" rel="nofollow noopener noreferrer">docs</a>',
    )
    const js = html('[click](javascript:alert(1))')
    expect(js).not.toContain('<a')
    expect(js).toContain('[click](javascript:alert(1))')
    expect(html('[x](" onmouseover="alert(1))')).not.toContain('onmouseover="')
  })
})
