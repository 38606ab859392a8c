import { type AlertMessageSource, alertText } from './message'

/** The JSON body of a webhook delivery (docs/alerts.md, "The webhook body"). */
export interface WebhookBody {
  /** The delivery id: the same on every retry; receivers deduplicate on it. */
  readonly id: string
  /** The rule's trigger, or `test`. */
  readonly type: string
  /** When the notification was recorded (not when this attempt was made). */
  readonly created_at: string
  readonly text: string
  readonly project: { readonly id: string; readonly name: string }
  /** `null` for a test message; `id` is `null` once the rule was deleted. */
  readonly rule: { readonly id: string | null; readonly name: string } | null
  readonly issue?: unknown
  readonly event?: unknown
  readonly spike?: unknown
  readonly monitor?: unknown
  readonly release?: unknown
  readonly summary?: unknown
}

/** The webhook body of a delivery, as an object (see {@link webhookBytes} for what is sent). */
export function webhookBody(source: AlertMessageSource): WebhookBody {
  const { issue, event, spike, monitor, release, summary } = source.payload
  return {
    id: source.id,
    type: source.trigger,
    created_at: source.createdAt.toISOString(),
    text: alertText(source),
    project: { id: source.projectId, name: source.projectName },
    rule: source.ruleName === null ? null : { id: source.ruleId, name: source.ruleName },
    ...(issue ? { issue } : {}),
    ...(event ? { event } : {}),
    ...(spike ? { spike } : {}),
    ...(monitor ? { monitor } : {}),
    ...(release ? { release } : {}),
    ...(summary ? { summary } : {}),
  }
}

const encoder = new TextEncoder()

/**
 * Serialises a JSON body once, to the bytes that are both signed and sent: a receiver verifies
 * the signature over exactly what it read.
 */
export function jsonBytes(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value))
}

/** The bytes of a delivery's webhook body. */
export function webhookBytes(source: AlertMessageSource): Uint8Array {
  return jsonBytes(webhookBody(source))
}
