import type { EngineResponse } from '../http'

/** A JSON answer with the `application/json` content type and any extra headers. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): Response {
  const out = new Headers(headers)
  out.set('Content-Type', 'application/json')
  return new Response(JSON.stringify(body), { status, headers: out })
}

/**
 * An engine outcome as a Fetch `Response`, exactly: its status, its headers, and its body as
 * JSON — or no body when the engine answered `null` (e.g. 204), or its bytes as they are when it
 * answered a `Uint8Array` (OTLP's protobuf answers, whose `Content-Type` the engine sets). A
 * HEAD gets the same status and headers without the body.
 */
export function toResponse(response: EngineResponse, head = false): Response {
  const { status, body } = response
  const headers = new Headers(response.headers)
  if (body === null) return new Response(null, { status, headers })
  if (body instanceof Uint8Array) {
    return new Response(head ? null : (body as Uint8Array<ArrayBuffer>), { status, headers })
  }
  headers.set('Content-Type', 'application/json')
  return new Response(head ? null : JSON.stringify(body), { status, headers })
}
