import * as z from 'zod'
import { ALERT_TRIGGERS } from './alerts-answers'
import { component, dateTimeField, uuidField } from './common'

// The JSON body a webhook channel receives (docs/alerts.md, "The webhook body"): documented in
// the OpenAPI document as the component `AlertWebhookBody`, and the type the sender renders.

const idName = z.strictObject({ id: uuidField, name: z.string() })
const ruleName = z.strictObject({
  id: uuidField.nullable().meta({ description: 'Null once the rule was deleted.' }),
  name: z.string(),
})
const nullableText = z.string().nullable()

/** The issue of an issue trigger, after the change. */
const issueSchema = z.strictObject({
  id: uuidField,
  title: z.string(),
  level: z.string(),
  status: z.string(),
  count: z.int(),
  users: z.int().optional().meta({
    description:
      'Distinct users of its events (docs/issues.md#affected-users); absent only from notifications recorded before an upgrade to a version that counts them.',
  }),
  first_seen_at: dateTimeField,
  last_seen_at: dateTimeField,
  last_release: nullableText,
  regression_count: z.int(),
})

/** The event (of the change) that matched the rule's filters. */
const eventSchema = z.strictObject({
  id: uuidField,
  environment: nullableText,
  level: nullableText,
  release: nullableText,
  message: nullableText,
})

/** The monitor of a monitor trigger, after the change. */
const monitorSchema = z.strictObject({
  id: uuidField,
  slug: z.string(),
  environment: z.string(),
  state: z.enum(['ok', 'error', 'missed']).meta({ description: 'The state it moved to.' }),
  last_status: z.string(),
  last_check_in_at: dateTimeField,
  expected_interval_seconds: z.int(),
  missed_after: dateTimeField.optional().meta({ description: 'Missed: the deadline that passed.' }),
})

/** The release of `release_crash_free_below`, as it was when the rate fell below. */
const releaseSchema = z.strictObject({
  version: z.string(),
  environment: nullableText.meta({ description: "The rule's environment; null: all together." }),
  crash_free_sessions: z.number().min(0).max(1),
  sessions: z.int().meta({ description: 'Sessions started in the window.' }),
  crashed: z.int(),
  threshold: z.number(),
  window_seconds: z.int(),
})

/** The causes a rule folded in one minute beyond its ten messages a minute. */
const summarySchema = z.strictObject({
  count: z.int().meta({ description: 'How many causes (issues or monitors) it stands for.' }),
  since: dateTimeField.meta({ description: 'The minute they happened in, from `since`…' }),
  until: dateTimeField.meta({ description: '… to `until` (exclusive).' }),
  issues: z
    .array(issueSchema)
    .optional()
    .meta({ description: 'Issue triggers: the first (up to ten) of the issues.' }),
  monitors: z
    .array(monitorSchema)
    .optional()
    .meta({ description: 'Monitor triggers: the first (up to ten) of the monitors.' }),
  releases: z
    .array(releaseSchema)
    .optional()
    .meta({ description: 'Release triggers: the first (up to ten) of the releases.' }),
})

/** `POST <url>` of a webhook channel, signed with `X-Tis-Signature: sha256=<hex>`. */
export const alertWebhookBodySchema = component(
  'AlertWebhookBody',
  z.strictObject({
    id: uuidField.meta({
      description: 'The delivery id, also in `X-Tis-Delivery`: deduplicate on it.',
    }),
    type: z.enum([...ALERT_TRIGGERS, 'test']),
    created_at: dateTimeField,
    text: z.string().meta({ description: 'One line for people, e.g. "New issue in checkout: …".' }),
    project: idName,
    rule: ruleName.nullable().meta({ description: 'Null for a test message.' }),
    issue: issueSchema.optional().meta({ description: 'Issue triggers.' }),
    event: eventSchema.optional().meta({ description: 'Issue triggers.' }),
    spike: z
      .strictObject({ count: z.int(), threshold: z.int(), window_seconds: z.int() })
      .optional()
      .meta({ description: '`spike`: what was counted.' }),
    monitor: monitorSchema.optional().meta({ description: 'Monitor triggers.' }),
    release: releaseSchema.optional().meta({ description: '`release_crash_free_below`.' }),
    summary: summarySchema.optional().meta({
      description:
        'A summary instead of one cause: a rule sends ten messages a minute one by one and the causes beyond in one summary per minute, after it (no `issue`, `event`, `spike` or `monitor`).',
    }),
  }),
  'The JSON body a webhook channel receives, with headers `X-Tis-Delivery` (stable delivery id), `X-Tis-Signature: sha256=<hex HMAC-SHA256 of the raw body with the channel secret>` and `X-Tis-Event` (the trigger or `test`). A test message has `type: "test"`, `rule: null` and no subject; a summary has `summary` instead of a subject.',
)
/** The body a webhook channel receives. */
export type AlertWebhookBody = z.output<typeof alertWebhookBodySchema>
