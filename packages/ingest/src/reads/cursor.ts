import { type EngineResponse, json } from '../http'
import type { KeysetCursor } from '../ports'
import type { QueryResult } from './query-result'
import { isValidDate } from './stored-values'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Encodes a keyset position in an order named by `tag` (`''` for the lists' time orders) as an
 * opaque base64url token: the sort value (milliseconds, or a count) and the row's id.
 */
export function encodeTaggedCursor(tag: string, value: number, id: string): string {
  return btoa(`${tag}${value}.${id}`).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

/** Decodes a token of {@link encodeTaggedCursor}; `null` for anything else. */
export function decodeTaggedCursor(
  token: string,
): { tag: string; value: number; id: string } | null {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(token)) return null
  let text: string
  try {
    text = atob(token.replaceAll('-', '+').replaceAll('_', '/'))
  } catch {
    return null
  }
  const match = /^([a-z]?)(-?\d{1,15})\.([0-9a-f-]{36})$/i.exec(text)
  if (!match || !UUID.test(match[3]!)) return null
  return { tag: match[1]!, value: Number(match[2]), id: match[3]!.toLowerCase() }
}

/** Encodes a keyset position as an opaque base64url token. */
export function encodeCursor(cursor: KeysetCursor): string {
  return encodeTaggedCursor('', cursor.at.getTime(), cursor.id)
}

/** Decodes a token of {@link encodeCursor}; `null` for anything else. */
export function decodeCursor(token: string): KeysetCursor | null {
  const decoded = decodeTaggedCursor(token)
  if (decoded?.tag !== '' || Math.abs(decoded.value) > 8.64e15) return null
  return { at: new Date(decoded.value), id: decoded.id }
}

/** The token of a row's time position, `null` when JavaScript cannot represent its time. */
export function timeToken(position: KeysetCursor): string | null {
  // A row whose time JavaScript cannot represent (a BC date in an old database) has no keyset
  // position to continue from: such rows sort last, so the list ends there.
  return isValidDate(position.at) ? encodeCursor(position) : null
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
  return keysetPageBy(parsed, fetch, (row) => timeToken(key(row)))
}

/** {@link keysetPage} in any order: `token` encodes a row's position, `null` when it has none. */
export async function keysetPageBy<Q extends { limit: number }, R>(
  parsed: QueryResult<Q>,
  fetch: (query: Q) => Promise<readonly R[]>,
  token: (row: R) => string | null,
): Promise<{ rows: readonly R[]; next: string | null } | EngineResponse> {
  if (!parsed.ok) return json(422, { errors: parsed.errors })
  const { limit } = parsed.value
  const rows = await fetch({ ...parsed.value, limit: limit + 1 })
  const shown = rows.slice(0, limit)
  const last = shown[shown.length - 1]
  const next = rows.length > limit && last !== undefined ? token(last) : null
  return { rows: shown, next }
}
