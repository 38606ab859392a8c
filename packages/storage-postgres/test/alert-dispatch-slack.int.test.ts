// The alert dispatcher over this adapter on PGlite, posting a Slack channel's message to a real
// HTTP receiver: the body checked against Slack's documented incoming-webhook shape.

import { describe, expect, it } from 'vitest'
import {
  dispatcher,
  PAYLOAD,
  receiver,
  row,
  seed,
  useDispatchHarness,
} from './alert-dispatch-harness'

useDispatchHarness()

/**
 * Slack's incoming-webhook shape as its docs describe it: `text` (notification and fallback)
 * and `blocks`; a `header` block takes a `plain_text` object of at most 150 characters, a
 * `section` block a `mrkdwn` text object of at most 3,000; `&`, `<` and `>` in text are
 * escaped as `&amp;`, `&lt;` and `&gt;`. Returns the problems found.
 */
function slackShapeProblems(body: unknown): string[] {
  const problems: string[] = []
  const b = body as { text?: unknown; blocks?: unknown }
  if (typeof b.text !== 'string' || b.text === '') problems.push('text must be a non-empty string')
  const extra = Object.keys(b).filter((k) => k !== 'text' && k !== 'blocks')
  if (extra.length > 0) problems.push(`unexpected fields ${extra.join(', ')}`)
  if (!Array.isArray(b.blocks) || b.blocks.length === 0) return [...problems, 'blocks missing']
  for (const block of b.blocks as Array<{
    type?: string
    text?: { type?: string; text?: string }
  }>) {
    const text = block.text?.text ?? ''
    if (block.type === 'header') {
      if (block.text?.type !== 'plain_text') problems.push('header text must be plain_text')
      if (text.length === 0 || text.length > 150) problems.push('header text 1..150 characters')
    } else if (block.type === 'section') {
      if (block.text?.type !== 'mrkdwn') problems.push('section text must be mrkdwn')
      if (text.length === 0 || text.length > 3000) problems.push('section text 1..3000 characters')
      if (/<|>|&(?!amp;|lt;|gt;)/.test(text)) problems.push(`unescaped control characters: ${text}`)
    } else problems.push(`unexpected block ${block.type}`)
  }
  return problems
}

describe('Slack delivery', () => {
  it("posts Slack's documented incoming-webhook shape, escaping what events bring", async () => {
    const hostile = {
      ...PAYLOAD,
      issue: {
        ...PAYLOAD.issue,
        title: `<!channel> a & b <https://evil.example|click> ${'x'.repeat(4000)}`,
      },
    }
    const { id } = await seed('slack', hostile)
    expect(await dispatcher().runOnce()).toMatchObject({ delivered: 1 })
    const [request] = receiver.requests
    if (!request) throw new Error('nothing received')
    expect(request.headers['content-type']).toBe('application/json')
    expect(request.headers['x-tis-signature']).toBeUndefined()
    const body = JSON.parse(request.body.toString('utf8')) as {
      text: string
      blocks: Array<{ type: string; text: { text: string } }>
    }
    expect(slackShapeProblems(body)).toEqual([])
    expect(
      body.text.startsWith(
        'New issue in contract: &lt;!channel&gt; a &amp; b &lt;https://evil.example|click&gt; x',
      ),
    ).toBe(true)
    expect(body.blocks[0]?.text.text).toBe('New issue in contract')
    expect(body.blocks[1]?.text.text).toContain('*Environment:* production')
    expect(body.blocks[1]?.text.text).toContain(
      '*Issue:* &lt;!channel&gt; a &amp; b &lt;https://evil.example|click&gt; xxx',
    )
    // Each value is clipped to 300 characters before escaping: the title's line ends in "…".
    expect(body.blocks[1]?.text.text).toMatch(/x…\n/)
    expect(
      slackShapeProblems({
        text: 'x',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '<!channel>' } }],
      }),
    ).toHaveLength(1)
    expect((await row(id)).status).toBe('delivered')
  })
})
