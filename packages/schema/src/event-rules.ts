import { isPlainObject, type JsonObject } from './keys'
import type { Problem } from './messages'

const blank = (v: unknown) => v === undefined || (typeof v === 'string' && v.trim() === '')

/**
 * The value of a span field (`kind`, `started_at`, `ended_at`, …) the engine uses: the top-level
 * one, else, on a span, the one in `context`. `undefined` when neither is set.
 */
export function effectiveSpanField(event: JsonObject, context: unknown, name: string): unknown {
  if (event[name] !== undefined) return event[name]
  if (event['event_type'] !== 'span' || !isPlainObject(context)) return undefined
  return context[name]
}

/**
 * Rules that span fields, checked on the canonical input so every problem is listed at once:
 * a label on every event (`message`, or on spans `name` or `message`), a monitor on check_in
 * events (`check_in_slug` at the top level or in `context`), a span that does not end before it
 * starts.
 */
export function crossFieldProblems(event: JsonObject): Problem[] {
  const problems: Problem[] = []
  const context = isPlainObject(event['context']) ? event['context'] : {}
  if (event['event_type'] === 'span') {
    if (blank(event['name']) && blank(event['message'])) {
      problems.push({
        path: ['name'],
        message: "can't be blank (a span needs a name or a message)",
      })
    }
  } else if (blank(event['message'])) {
    problems.push({ path: ['message'], message: "can't be blank" })
  }
  if (
    event['event_type'] === 'check_in' &&
    blank(event['check_in_slug']) &&
    blank(context['check_in_slug'])
  ) {
    problems.push({
      path: ['check_in_slug'],
      message: "can't be blank (a check_in event names its monitor)",
    })
  }
  const started = effectiveSpanField(event, context, 'started_at')
  const ended = effectiveSpanField(event, context, 'ended_at')
  if (typeof started === 'string' && typeof ended === 'string') {
    const [s, e] = [Date.parse(started), Date.parse(ended)]
    if (!Number.isNaN(s) && !Number.isNaN(e) && e < s) {
      const path = event['ended_at'] === undefined ? ['context', 'ended_at'] : ['ended_at']
      problems.push({ path, message: 'must not be before started_at' })
    }
  }
  return problems
}
