import { MAX_CAUSES, MAX_MEMBERS } from './caps'
import { normalize } from './serialize'
import { parseStack } from './stack'

/** Best-effort property read that swallows throwing getters. */
export function read(value: unknown, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key]
  } catch {
    // undefined
  }
}

/**
 * `context.exception` of an `error` event: `class`, `message`, parsed `frames`, the `cause`
 * chain and the members of an `AggregateError` (`errors`). Non-errors are described as thrown
 * values. Never throws.
 */
export function describeException(error: unknown, depth = 0): Record<string, unknown> {
  const isErrorLike = typeof error === 'object' && 'message' in Object(error)
  if (!isErrorLike) {
    return { class: 'NonError', message: String(normalize(error)), frames: [] }
  }
  const name = read(error, 'name')
  const ctor = read(read(error, 'constructor'), 'name')
  const out: Record<string, unknown> = {
    class: String(typeof name === 'string' && name !== 'Error' ? name : (ctor ?? name ?? 'Error')),
    message: String(normalize(read(error, 'message')) ?? ''),
    frames: parseStack(read(error, 'stack')),
  }
  const cause = read(error, 'cause')
  if (cause !== undefined && depth < MAX_CAUSES) out['cause'] = describeException(cause, depth + 1)
  const members = read(error, 'errors')
  if (Array.isArray(members) && depth < MAX_CAUSES) {
    out['errors'] = members.slice(0, MAX_MEMBERS).map((m) => describeException(m, depth + 1))
  }
  return out
}
