import type { SectionId } from './settings-section-parts'

// What a settings form ends with: the notice of its success and the section it lands on, and the
// fields typed into a refused form.

/** The `?done=` notices of the forms and the section each one is shown in (the anchor). */
export const DONE = {
  'key-revoked': ['api-keys', 'The API key was revoked.'],
  archived: ['project', 'The project was archived: its API keys stop working.'],
  restored: ['project', 'The project was restored. Create a new API key to send events again.'],
  'member-added': ['project-members', 'The member was added.'],
  'mobile-token-revoked': ['mobile-tokens', 'The mobile token was revoked.'],
  'limits-saved': ['rate-limits', 'The rate limits were saved.'],
  'retention-saved': ['retention', 'The retention period was saved.'],
  'scrubbing-saved': ['data-scrubbing', 'The data scrubbing settings were saved.'],
  'source-saved': ['source', 'The source code settings were saved.'],
  'bundle-deleted': ['source-maps', 'The source map bundle was deleted.'],
  'channel-created': ['alert-channels', 'The channel was created.'],
  'channel-deleted': ['alert-channels', 'The channel was deleted.'],
  'channel-tested': ['alert-channels', 'Test message queued: see the delivery log below.'],
  'rule-created': ['alert-rules', 'The rule was created.'],
  'rule-deleted': ['alert-rules', 'The rule was deleted.'],
} as const satisfies Record<string, readonly [SectionId, string]>
/** The notice of one form's success. */
export type Done = keyof typeof DONE

/** Whether a `?done=` value is one of {@link DONE}. */
export const isDone = (key: string): key is Done => Object.hasOwn(DONE, key)

/** A form's text fields as typed, to fill in again when it is refused; never `_csrf` or a token. */
export function typedFields(form: Record<string, unknown>): Record<string, string> {
  const typed: Record<string, string> = {}
  for (const [key, value] of Object.entries(form)) {
    if (key !== '_csrf' && key !== 'github_token' && typeof value === 'string') typed[key] = value
  }
  return typed
}
