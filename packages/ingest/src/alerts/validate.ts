import {
  ALERT_CHANNEL_TYPES,
  ALERT_LEVELS,
  ALERT_LIMITS,
  ALERT_TRIGGERS,
  canonicalizeKeys,
  type JsonObject,
} from '@tis/schema'
import type { AlertChannelType, AlertTrigger } from '../ports'

// The fields of the alerts API's request bodies, checked one by one so every 422 names its field
// (docs/alerts.md lists the limits). What needs I/O — where a URL points, whether channel ids are
// the project's — is checked afterwards by the API.

/** The fields a channel body may hold. */
export const CHANNEL_FIELDS = ['name', 'type', 'url', 'to'] as const
/** The fields a rule body may hold. */
export const RULE_FIELDS = [
  'name',
  'trigger',
  'channel_ids',
  'environment',
  'level',
  'threshold',
  'window_seconds',
  'quiet_seconds',
] as const

/** A channel body that passed the field checks (its URL not yet checked for where it points). */
export interface ChannelInput {
  readonly name: string
  readonly type: AlertChannelType
  readonly url: string | null
  readonly to: readonly string[] | null
}

/** A rule body that passed the field checks (its channels not yet checked to be the project's). */
export interface RuleInput {
  readonly name: string
  readonly trigger: AlertTrigger
  readonly channelIds: readonly string[]
  readonly environment: string | null
  readonly level: string | null
  readonly threshold: number | null
  readonly windowSeconds: number | null
  readonly quietSeconds: number
}

/** The outcome of a parse: the input, or every problem found. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: string[] }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const EMAIL = /^[^\s@,;<>"()[\]\\]+@[^\s@,;<>"()[\]\\]+$/
const MAX_EMAIL = 320
const ISSUE_TRIGGERS: readonly string[] = ['new_issue', 'regression', 'spike']

/** Reads the body's keys in snake_case, listing the ones it may not hold. */
function fieldsOf(body: JsonObject, fields: readonly string[], errors: string[]): JsonObject {
  const value = canonicalizeKeys(body, { known: new Set(fields) })
  for (const key of Object.keys(value)) {
    if (!fields.includes(key)) errors.push(`${key} is not a permitted property`)
  }
  return value
}

/** A trimmed, non-blank text of at most `max` characters, or `undefined` after an error. */
function text(field: string, value: unknown, max: number, errors: string[]): string | undefined {
  if (value === undefined || value === null) {
    errors.push(`${field} can't be blank`)
    return undefined
  }
  if (typeof value !== 'string') {
    errors.push(`${field} must be a string`)
    return undefined
  }
  const trimmed = value.trim()
  if (trimmed === '') errors.push(`${field} can't be blank`)
  else if (trimmed.length > max) errors.push(`${field} must be at most ${max} characters`)
  else if (trimmed.includes('\u0000')) errors.push(`${field} must not contain a NUL character`)
  else return trimmed
  return undefined
}

/** An integer from `min` to `max`, or `null` when absent; `undefined` after an error. */
function integer(field: string, value: unknown, min: number, max: number, errors: string[]) {
  if (value === undefined || value === null) return null
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    errors.push(`${field} must be an integer from ${min} to ${max}`)
    return undefined
  }
  return value
}

function oneOf<T extends string>(
  field: string,
  value: unknown,
  allowed: readonly T[],
  errors: string[],
) {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T
  errors.push(
    value === undefined || value === null
      ? `${field} can't be blank`
      : `${field} must be one of ${allowed.join(', ')}`,
  )
  return undefined
}

/** The recipients of an email channel: an array of addresses or one comma-separated string. */
function recipients(value: unknown, errors: string[]): string[] | undefined {
  const list =
    typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined
  if (value === undefined || value === null) errors.push('to is required for an email channel')
  else if (!list || list.some((a) => typeof a !== 'string')) {
    errors.push('to must be an email address, a comma-separated list or an array of them')
  } else {
    const addresses = (list as string[]).map((a) => a.trim()).filter((a) => a !== '')
    const bad = addresses.find((a) => a.length > MAX_EMAIL || !EMAIL.test(a))
    if (addresses.length === 0) errors.push("to can't be blank")
    else if (addresses.length > ALERT_LIMITS.recipients) {
      errors.push(`to must have at most ${ALERT_LIMITS.recipients} addresses`)
    } else if (bad !== undefined)
      errors.push(`to has an invalid email address: ${bad.slice(0, 80)}`)
    else return [...new Set(addresses)]
  }
  return undefined
}

/** Checks a channel body's fields; `emailConfigured` says whether the server has SMTP settings. */
export function parseChannel(body: JsonObject, emailConfigured: boolean): Parsed<ChannelInput> {
  const errors: string[] = []
  const o = fieldsOf(body, CHANNEL_FIELDS, errors)
  const name = text('name', o['name'], ALERT_LIMITS.name, errors)
  const type = oneOf('type', o['type'], ALERT_CHANNEL_TYPES, errors)
  let url: string | null = null
  let to: string[] | null = null
  if (type === 'email') {
    if (!emailConfigured) {
      errors.push(
        'type email needs the server to send mail: set SERVICE_SMTP_HOST and SERVICE_SMTP_FROM',
      )
    }
    if (o['url'] !== undefined) errors.push('url is only for webhook and slack channels')
    to = recipients(o['to'], errors) ?? null
  } else if (type !== undefined) {
    if (o['to'] !== undefined) errors.push('to is only for email channels')
    url = text('url', o['url'], ALERT_LIMITS.url, errors) ?? null
  }
  if (errors.length > 0) return { ok: false, errors }
  return { ok: true, value: { name: name!, type: type!, url, to } }
}

/** The channel ids of a rule: one or more UUIDs, each once. */
function channelIds(value: unknown, errors: string[]): string[] | undefined {
  if (value === undefined || value === null) errors.push("channel_ids can't be blank")
  else if (!Array.isArray(value)) errors.push('channel_ids must be an array of channel ids')
  else if (value.length === 0) errors.push('channel_ids must name at least one channel')
  else if (value.length > ALERT_LIMITS.channelsPerRule) {
    errors.push(`channel_ids must name at most ${ALERT_LIMITS.channelsPerRule} channels`)
  } else {
    const bad = value.findIndex((id) => typeof id !== 'string' || !UUID.test(id))
    const ids = value.map((id) => String(id).toLowerCase())
    const repeated = ids.findIndex((id, i) => ids.indexOf(id) !== i)
    if (bad !== -1) errors.push(`channel_ids[${bad}] is not a channel id`)
    else if (repeated !== -1) errors.push(`channel_ids[${repeated}] repeats a channel`)
    else return ids
  }
  return undefined
}

/** Longest window of a `release_crash_free_below` rule: a week. */
export const RELEASE_RULE_MAX_WINDOW_SECONDS = 604_800

/**
 * `threshold` and `window_seconds`: a spike's event count and window, a release rule's
 * crash-free fraction (strictly between 0 and 1) and window; refused on any other trigger.
 */
function measures(trigger: AlertTrigger | undefined, o: JsonObject, errors: string[]) {
  const { min, max } = ALERT_LIMITS.windowSeconds
  if (trigger === 'release_crash_free_below') {
    const value = o['threshold']
    let threshold: number | null = null
    if (value === undefined || value === null) {
      errors.push('threshold is required for a release_crash_free_below rule')
    } else if (typeof value !== 'number' || !(value > 0 && value < 1)) {
      errors.push('threshold must be a crash-free fraction between 0 and 1 (0.99 for 99%)')
    } else threshold = value
    const windowSeconds = integer(
      'window_seconds',
      o['window_seconds'],
      min,
      RELEASE_RULE_MAX_WINDOW_SECONDS,
      errors,
    )
    if (windowSeconds === null) {
      errors.push('window_seconds is required for a release_crash_free_below rule')
    }
    return { threshold, windowSeconds: windowSeconds ?? null }
  }
  const threshold = integer('threshold', o['threshold'], 1, ALERT_LIMITS.threshold, errors)
  const windowSeconds = integer('window_seconds', o['window_seconds'], min, max, errors)
  if (trigger === 'spike') {
    if (threshold === null) errors.push('threshold is required for a spike rule')
    if (windowSeconds === null) errors.push('window_seconds is required for a spike rule')
  } else if (trigger !== undefined) {
    if (threshold !== null && threshold !== undefined)
      errors.push('threshold is only for spike and release_crash_free_below rules')
    if (windowSeconds !== null && windowSeconds !== undefined) {
      errors.push('window_seconds is only for spike and release_crash_free_below rules')
    }
  }
  return { threshold: threshold ?? null, windowSeconds: windowSeconds ?? null }
}

/** Checks a rule body's fields. */
export function parseRule(body: JsonObject): Parsed<RuleInput> {
  const errors: string[] = []
  const o = fieldsOf(body, RULE_FIELDS, errors)
  const name = text('name', o['name'], ALERT_LIMITS.name, errors)
  const trigger = oneOf('trigger', o['trigger'], ALERT_TRIGGERS, errors)
  const ids = channelIds(o['channel_ids'], errors)
  const environment =
    o['environment'] === undefined
      ? null
      : text('environment', o['environment'], ALERT_LIMITS.environment, errors)
  const level = o['level'] === undefined ? null : oneOf('level', o['level'], ALERT_LEVELS, errors)
  if (level && trigger && !ISSUE_TRIGGERS.includes(trigger)) {
    errors.push('level applies to issue triggers only (new_issue, regression, spike)')
  }
  const { threshold, windowSeconds } = measures(trigger, o, errors)
  const quiet = integer('quiet_seconds', o['quiet_seconds'], 0, ALERT_LIMITS.quietSeconds, errors)
  if (errors.length > 0) return { ok: false, errors }
  return {
    ok: true,
    value: {
      name: name!,
      trigger: trigger!,
      channelIds: ids!,
      environment: environment ?? null,
      level: level ?? null,
      threshold: threshold ?? null,
      windowSeconds: windowSeconds ?? null,
      quietSeconds: quiet ?? (trigger === 'spike' ? 3_600 : 0),
    },
  }
}
