import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

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
