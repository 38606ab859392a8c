import { isPlainObject, type JsonObject } from './keys'
import { LIMITS } from './limits'
import { truncateText } from './truncate'

/**
 * Where Logister's clients put a trace id that tis would not otherwise see, in the order they
 * are read: the Express error handler of logister-js (`context.request.trace_id`) and the Rack
 * middleware of logister-ruby (`context.trace.trace_id`, `context.trace.traceId`).
 */
export const NESTED_TRACE_ID_LOCATIONS = [
  ['request', 'trace_id'],
  ['trace', 'trace_id'],
  ['trace', 'traceId'],
] as const

/**
 * The trace id an event carries only in a nested context object (see
 * {@link NESTED_TRACE_ID_LOCATIONS}): the first non-blank string found, cut to the string limit;
 * `undefined` when there is none. The objects themselves are left as sent.
 */
export function nestedTraceId(context: JsonObject): string | undefined {
  for (const [object, key] of NESTED_TRACE_ID_LOCATIONS) {
    const holder = context[object]
    if (!isPlainObject(holder)) continue
    const value = holder[key]
    if (typeof value === 'string' && value.trim() !== '') {
      return truncateText(value, LIMITS.maxStringLength)
    }
  }
  return undefined
}
