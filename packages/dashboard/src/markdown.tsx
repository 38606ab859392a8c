/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { Html } from './layout'

// Comments' markdown, rendered as JSX: every piece of text is a text node (escaped), so a
// comment can never inject HTML; only the constructs below become elements. Paragraphs (blank
// lines), line breaks, ``` fenced code, `- ` lists, `code`, **bold**, *emphasis* and
// [links](https://…) to http, https and mailto addresses.

type Inline = Html | string

const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)\s]+)\)/g
const SAFE_LINK = /^(https?:\/\/|mailto:)/i

/** The inline constructs of one line. */
function inline(text: string): Inline[] {
  const out: Inline[] = []
  let last = 0
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index))
    const [whole, code, bold, em, label, href] = m
    if (code !== undefined) out.push(<code>{code}</code>)
    else if (bold !== undefined) out.push(<strong>{bold}</strong>)
    else if (em !== undefined) out.push(<em>{em}</em>)
    else if (label !== undefined && href !== undefined && SAFE_LINK.test(href)) {
      out.push(
        <a href={href} rel="nofollow noopener noreferrer">
          {label}
        </a>,
      )
    } else out.push(whole)
    last = m.index + whole.length
  }
  if (last < text.length) out.push(text.slice(last))
  return out
}

/** Lines joined with line breaks. */
const lines = (text: string): Inline[] =>
  text.split('\n').flatMap((line, i) => (i === 0 ? inline(line) : [<br />, ...inline(line)]))

/** A comment's markdown as safe HTML. */
export function Markdown({ text }: { text: string }): Html {
  const blocks: Html[] = []
  const parts = text.replace(/\r\n?/g, '\n').split(/^```[^\n]*\n?/m)
  parts.forEach((part, i) => {
    // Odd parts are inside a fence: code as written.
    if (i % 2 === 1) {
      blocks.push(
        <pre>
          <code>{part.replace(/\n$/, '')}</code>
        </pre>,
      )
      return
    }
    for (const block of part.split(/\n\s*\n/)) {
      const trimmed = block.trim()
      if (trimmed === '') continue
      const items = trimmed.split('\n')
      if (items.every((l) => /^\s*[-*] /.test(l))) {
        blocks.push(
          <ul>
            {items.map((l) => (
              <li>{inline(l.replace(/^\s*[-*] /, ''))}</li>
            ))}
          </ul>,
        )
      } else blocks.push(<p>{lines(trimmed)}</p>)
    }
  })
  return <div class="markdown">{blocks}</div>
}
