// The alerts forms of the settings page as the engine's request bodies: a blank field is left
// out (so the engine applies its default or names the missing field), a number typed as digits
// is sent as a number, anything else as the text typed, so the engine's 422 names the field.

/** A form as `parseBody({ all: true })` reads it. */
export type AlertForm = Record<string, unknown>

/** A field's trimmed text; the first value of a repeated field; `''` when absent. */
export function field(form: AlertForm, name: string): string {
  const value = form[name]
  const first = Array.isArray(value) ? value[0] : value
  return typeof first === 'string' ? first.trim() : ''
}

/** A repeated field's values (the checked channel boxes), in the order sent. */
export function fields(form: AlertForm, name: string): string[] {
  const value = form[name]
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value]
  return list.filter((v): v is string => typeof v === 'string')
}

/** The fields of `names` that were filled in, as typed. */
function filled(form: AlertForm, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, field(form, n)]).filter(([, v]) => v !== ''))
}

const numberOrText = (text: string) => (/^\d{1,15}$/.test(text) ? Number(text) : text)

/** The `alert_channel` body of the "Add channel" form (`to` stays one comma-separated text). */
export function channelBody(form: AlertForm): Record<string, string> {
  return filled(form, ['name', 'type', 'url', 'to'])
}

/** The `alert_rule` body of the "Add rule" form. */
export function ruleBody(form: AlertForm): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...filled(form, ['name', 'trigger', 'environment', 'level']),
    channel_ids: fields(form, 'channel_ids'),
  }
  for (const [name, text] of Object.entries(
    filled(form, ['threshold', 'window_seconds', 'quiet_seconds']),
  )) {
    body[name] = numberOrText(text)
  }
  return body
}

/**
 * A refused form's fields as typed, to fill in again: the checked channels joined by commas;
 * never `_csrf`.
 */
export function typedAlertFields(form: AlertForm): Record<string, string> {
  const typed: Record<string, string> = {}
  for (const name of Object.keys(form)) {
    if (name !== '_csrf') typed[name] = fields(form, name).join(',')
  }
  return typed
}
