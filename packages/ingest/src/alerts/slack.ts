import { type AlertMessageSource, alertFacts, alertHeadline, alertText } from './message'

/** Slack's limit on a header block's text, in characters. */
const HEADER_MAX = 150
/** Slack's limit on a section block's text, in characters. */
const SECTION_MAX = 3000

/**
 * Escapes text for Slack: `&`, `<` and `>` (and only those) become HTML entities, so a title
 * cannot smuggle in a mention (`<!channel>`) or a link (Slack's "Formatting text" reference).
 */
export function escapeSlack(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

/** Cuts text to `max` characters with an ellipsis (by code point, never inside a pair). */
function clip(text: string, max: number): string {
  const chars = Array.from(text)
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`
}

/** Longest value of one fact, and of the fallback text, before escaping (characters). */
const VALUE_MAX = 300

/** A Slack incoming-webhook message: `text` (notifications, fallback) and Block Kit blocks. */
export interface SlackMessage {
  readonly text: string
  readonly blocks: ReadonlyArray<Record<string, unknown>>
}

/** Whole lines, in order, while they fit in Slack's section limit (never a cut entity). */
function fitLines(lines: readonly string[]): string {
  let text = ''
  for (const line of lines) {
    const next = text === '' ? line : `${text}\n${line}`
    if (next.length > SECTION_MAX) break
    text = next
  }
  return text
}

/**
 * A delivery in Slack's incoming-webhook format: the one-line text as the fallback, a header
 * block (plain text, ≤ 150 characters) and a section of mrkdwn facts (≤ 3,000 characters),
 * each value clipped to 300 characters before it is escaped.
 */
export function slackMessage(source: AlertMessageSource): SlackMessage {
  const lines = alertFacts(source).map(
    ([label, value]) => `*${label}:* ${escapeSlack(clip(value, VALUE_MAX))}`,
  )
  return {
    text: escapeSlack(clip(alertText(source), VALUE_MAX)),
    blocks: [
      {
        type: 'header',
        text: { type: 'plain_text', text: clip(alertHeadline(source), HEADER_MAX) },
      },
      { type: 'section', text: { type: 'mrkdwn', text: fitLines(lines) } },
    ],
  }
}
