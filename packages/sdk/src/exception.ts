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
  const cause = read(error, 'cause')
  const members = read(error, 'errors')
  return {
    class: String(typeof name === 'string' && name !== 'Error' ? name : (ctor ?? name ?? 'Error')),
    message: String(normalize(read(error, 'message')) ?? ''),
    frames: parseStack(read(error, 'stack')),
    ...(cause !== undefined &&
      depth < MAX_CAUSES && { cause: describeException(cause, depth + 1) }),
    ...(Array.isArray(members) &&
      depth < MAX_CAUSES && {
        errors: members.slice(0, MAX_MEMBERS).map((m) => describeException(m, depth + 1)),
      }),
  }
}
