import { type EngineResponse, json } from '../http'
import type { KeysetCursor } from '../ports'
import type { QueryResult } from './query-result'
import { isValidDate } from './stored-values'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Encodes a keyset position as an opaque base64url token. */
export function encodeCursor(cursor: KeysetCursor): string {
  const text = `${cursor.at.getTime()}.${cursor.id}`
  return btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

/** Decodes a token of {@link encodeCursor}; `null` for anything else. */
export function decodeCursor(token: string): KeysetCursor | null {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(token)) return null
  let text: string
  try {
    text = atob(token.replaceAll('-', '+').replaceAll('_', '/'))
  } catch {
    return null
  }
  const match = /^(-?\d{1,15})\.([0-9a-f-]{36})$/i.exec(text)
  if (!match || !UUID.test(match[2]!)) return null
  const at = new Date(Number(match[1]))
  return Number.isNaN(at.getTime()) ? null : { at, id: match[2]!.toLowerCase() }
}

/**
 * One keyset page of a list read: fetches one row more than `limit` so the last page has no
 * cursor, and encodes the last row's position as `next`. A failed parse is the 422 answer.
 */
export async function keysetPage<Q extends { limit: number }, R>(
  parsed: QueryResult<Q>,
  fetch: (query: Q) => Promise<readonly R[]>,
  key: (row: R) => KeysetCursor,
): Promise<{ rows: readonly R[]; next: string | null } | EngineResponse> {
  if (!parsed.ok) return json(422, { errors: parsed.errors })
  const { limit } = parsed.value
  const rows = await fetch({ ...parsed.value, limit: limit + 1 })
  const shown = rows.slice(0, limit)
  const last = shown[shown.length - 1]
  const position = last ? key(last) : undefined
  // A row whose time JavaScript cannot represent (a BC date in an old database) has no keyset
  // position to continue from: such rows sort last, so the list ends there.
  const more = rows.length > limit && position !== undefined && isValidDate(position.at)
  return { rows: shown, next: more ? encodeCursor(position) : null }
}
