// The top level of each record kind. Its documented fields are exempt from the key rules (their
// names never cause filtering): free objects among them are walked, `message`-like text is
// scanned, and the rest is kept as sent. Every other key goes through the ordinary walk.

import type { KeyInfo } from './keys'
import {
  CHECK_IN_FIELD_SET,
  CONTEXT_FIELD_SET,
  DEPLOYMENT_FIELD_SET,
  EVENT_FIELD_SET,
} from './names'
import { isIpLiteral } from './patterns'
import { scrubString } from './values'
import { isRecord, type Run, walkEntry, walkValue } from './walk'

/** How one record kind (or an event's `context`) is read at its top level. */
export interface RecordShape {
  /** Documented fields (in `_`-joined word form): exempt from the key rules. */
  readonly documented: ReadonlySet<string>
  /** Documented string fields the value rules scan. */
  readonly scanned: ReadonlySet<string>
  /** Fields the scrubber itself owns: removed from what clients sent. */
  readonly reserved?: ReadonlySet<string>
  /** Documented objects that have a shape of their own. */
  readonly nested?: Readonly<Record<string, RecordShape>>
}

const NONE: ReadonlySet<string> = new Set()

/** An event's `context`; `data_scrubbing` is where the caller puts the real report. */
export const CONTEXT_SHAPE: RecordShape = {
  documented: CONTEXT_FIELD_SET,
  scanned: NONE,
  reserved: new Set(['data_scrubbing']),
}

/** An event: `message` and `name` are free text; `context` has its own shape. */
export const EVENT_SHAPE: RecordShape = {
  documented: EVENT_FIELD_SET,
  scanned: new Set(['message', 'name']),
  nested: { context: CONTEXT_SHAPE },
}

/** A check-in. */
export const CHECK_IN_SHAPE: RecordShape = { documented: CHECK_IN_FIELD_SET, scanned: NONE }

/** A deployment: its links are scanned (a URL can carry a password or a token). */
export const DEPLOYMENT_SHAPE: RecordShape = {
  documented: DEPLOYMENT_FIELD_SET,
  scanned: new Set([...DEPLOYMENT_FIELD_SET].filter((f) => f.endsWith('_url'))),
}

/** Sentry derives `user_id` from `user.ip_address` when the user has nothing else. */
const isIpUserId = (value: unknown) => value === '{{auto}}' || isIpLiteral(value)

/** The value of a documented field; `REMOVE` drops the field. */
const REMOVE = Symbol('remove')

function documentedValue(
  { snake, verdict }: KeyInfo,
  value: unknown,
  shape: RecordShape,
  depth: number,
  run: Run,
): unknown {
  if (snake === 'user_id' && run.scrubIp && isIpUserId(value)) {
    run.tally.add('ip_address')
    return REMOVE
  }
  const nested = shape.nested?.[snake]
  if (nested !== undefined) {
    return isRecord(value)
      ? scrubRecord(value, nested, depth + 1, run)
      : walkValue(value, depth + 1, run)
  }
  if (shape.scanned.has(snake)) return typeof value === 'string' ? scrubString(value, run) : value
  if (verdict === 'identifier') return value
  return typeof value === 'object' ? walkValue(value, depth + 1, run) : value
}

/** One record read with `shape` at its top level; the input itself when nothing changed. */
export function scrubRecord(
  record: Record<string, unknown>,
  shape: RecordShape,
  depth: number,
  run: Run,
): Record<string, unknown> {
  let out: Record<string, unknown> | undefined
  for (const key of Object.keys(record)) {
    const value = record[key]
    const info = run.classify(key)
    let next: unknown
    if (shape.reserved?.has(info.snake)) next = REMOVE
    else if (info.verdict === 'safe') next = value
    else if (shape.documented.has(info.snake))
      next = documentedValue(info, value, shape, depth, run)
    else next = walkEntry(key, value, depth + 1, run)
    if (next === value) continue
    out ??= { ...record }
    // `key` is an own property of the copy (even `__proto__`): assigning never sets a prototype.
    if (next === REMOVE) delete out[key]
    else out[key] = next
  }
  return out ?? record
}
