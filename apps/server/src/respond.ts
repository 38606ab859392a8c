import type { EngineResponse } from '@tis/ingest'
import type { Context } from 'hono'
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status'

/**
 * Writes an engine outcome out exactly: its status, its headers, and its body as JSON — or no
 * body at all when the engine answered `null` (e.g. 204), or its bytes as they are when it
 * answered a `Uint8Array` (OTLP's protobuf answers, whose `Content-Type` the engine sets).
 */
export function sendEngineResponse(c: Context, response: EngineResponse): Response {
  const headers: Record<string, string> = { ...response.headers }
  if (response.body === null) return c.body(null, response.status as StatusCode, headers)
  if (response.body instanceof Uint8Array) {
    return c.body(
      response.body as Uint8Array<ArrayBuffer>,
      response.status as ContentfulStatusCode,
      headers,
    )
  }
  return sendJson(c, response.status, response.body, headers)
}

/** A JSON response with the `application/json` content type and any extra headers. */
export function sendJson(
  c: Context,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return c.body(JSON.stringify(body), status as ContentfulStatusCode, {
    ...headers,
    'Content-Type': 'application/json',
  })
}
