import type { NormalizedEvent } from '@tis/schema'
import { sha256Hex } from '../ids'
import type { IssueGrouping } from '../ports'

const MAX_KEY = 1_024
const MAX_TITLE = 255

/** The first line of a message that has any text, trimmed. */
export function firstLine(message: string): string {
  for (const line of message.split(/\r\n|\r|\n/)) {
    const trimmed = line.trim()
    if (trimmed !== '') return trimmed
  }
  return ''
}

/**
 * How an error joins an issue (section 1): by `fingerprint` when given, else by the first line of
 * `message`. Grouping is per project; the hash keeps the database index small whatever the key.
 */
export function issueGrouping(
  event: Pick<NormalizedEvent, 'message' | 'fingerprint' | 'level'>,
): IssueGrouping {
  const line = firstLine(event.message ?? '')
  const fingerprint = event.fingerprint?.trim()
  const key = (fingerprint ? `fingerprint:${fingerprint}` : `message:${line}`).slice(0, MAX_KEY)
  return {
    hash: sha256Hex(key),
    key,
    title: (line || fingerprint || 'Error').slice(0, MAX_TITLE),
    level: event.level ?? 'error',
  }
}
