import { type EngineRequest, type EngineResponse, readHeader } from '../http'

// Answers in the shape Sentry's tooling reads: JSON with `detail` (what sentry-cli prints) and
// `error` (what tis's other APIs use), so both kinds of client name the problem.

/** A Sentry-style error answer: `{ detail, error }` with the same message. */
export function sentryError(status: number, message: string): EngineResponse {
  return { status, headers: {}, body: { detail: message, error: message } }
}

/** A JSON answer. */
export function ok(body: unknown, status = 200): EngineResponse {
  return { status, headers: {}, body }
}

/** The missing-token answer of every upload endpoint. */
export const UNAUTHORIZED_DETAIL =
  'Invalid token: send a tis user access token as `Authorization: Bearer tis_user_…`.'

/**
 * The origin the client reached the server at: `X-Forwarded-Proto`/`X-Forwarded-Host` (a proxy),
 * else `Host`, else the configured public URL. The chunk `url` must be absolute on it: the JS
 * uploader fails on a relative one, and a foreign host sends sentry-cli elsewhere.
 */
export function requestOrigin(request: EngineRequest, publicUrl: string | undefined): string {
  const first = (name: string) => readHeader(request.headers, name)?.split(',')[0]?.trim()
  const host = first('x-forwarded-host') || first('host')
  if (host && /^[\w.\-:[\]]+$/.test(host)) {
    const proto = first('x-forwarded-proto')
    // Behind a TLS proxy that sets no X-Forwarded-Proto, the public URL knows the scheme.
    const pub = publicUrl ? new URL(publicUrl) : null
    const https = proto ? proto === 'https' : pub?.host === host && pub.protocol === 'https:'
    return `${https ? 'https' : 'http'}://${host}`
  }
  if (publicUrl) return new URL(publicUrl).origin
  return 'http://localhost'
}

/** Parses a JSON body given as text (or already parsed); `undefined` when it is not JSON. */
export function jsonBody(request: EngineRequest): unknown {
  if (request.body !== undefined) return request.body
  if (request.text === undefined || request.text.trim() === '') return undefined
  try {
    return JSON.parse(request.text)
  } catch {
    return undefined
  }
}
