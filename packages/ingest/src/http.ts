import type { UserRecord } from './ports'

/** Request headers as any server has them: a plain object (any case) or a Fetch `Headers`. */
export type HeaderSource =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>

/**
 * One request as the engine sees it. Give the body either parsed (`body`) or as text (`text`):
 * with `text` the engine answers malformed JSON itself, so every host behaves the same.
 */
export interface EngineRequest {
  readonly headers: HeaderSource
  readonly body?: unknown
  readonly text?: string
  /** The raw body bytes (the batch endpoint: needed for `Content-Encoding: gzip`). */
  readonly bytes?: Uint8Array
  /** Client address, for the authentication-failure limit. */
  readonly ip?: string
  /** Path parameters (management API), e.g. `{ id, key_id }`. */
  readonly params?: Readonly<Record<string, string>>
  /** Query parameters (read API). */
  readonly query?: Readonly<Record<string, string | undefined>>
  /**
   * A user the host already authenticated in process — the dashboard, from a session it resolved
   * with `engine.account.resolveSession` — so management and read operations skip the access-token
   * check. Never fill it from anything a client sent: the HTTP routes never set it.
   */
  readonly user?: UserRecord
}

/**
 * What the engine answers: the host writes it out as is: a JSON body, no body when `body` is
 * `null`, or the bytes themselves when `body` is a `Uint8Array` (OTLP's protobuf answers, with
 * their `Content-Type` in `headers`).
 */
export interface EngineResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
}

/** Reads one header, case-insensitively, from either header shape. */
export function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>
  const lower = name.toLowerCase()
  for (const key in record) {
    if (key.toLowerCase() === lower) {
      const value = record[key]
      return Array.isArray(value) ? value[0] : (value as string | undefined)
    }
  }
  return undefined
}

/** A JSON response. */
export function json(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): EngineResponse {
  return { status, headers, body }
}
