import type { IncomingHttpHeaders } from 'node:http'

/** The value that replaces a secret query parameter. */
export const FILTERED = '[Filtered]'

/**
 * Request headers reported by default: none that carries credentials (`authorization`,
 * `cookie`, API keys) or personal data such as client addresses or the `referer`.
 */
export const DEFAULT_ALLOWED_HEADERS: readonly string[] = [
  'accept',
  'accept-language',
  'content-length',
  'content-type',
  'host',
  'traceparent',
  'user-agent',
  'x-request-id',
]

/** Query parameter names whose values are filtered by default. */
export const DEFAULT_REDACTED_QUERY_PARAMS =
  /pass|secret|token|auth|api[-_]?key|session|cookie|sig|credential|code|jwt|otp/i

const decode = (raw: string) => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '))
  } catch {
    return raw
  }
}

/** `query` (without `?`) with the values of parameters whose name matches `secret` filtered. */
export function redactQuery(query: string, secret: RegExp): string {
  return query
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=')
      const key = at < 0 ? pair : pair.slice(0, at)
      secret.lastIndex = 0
      return at >= 0 && secret.test(decode(key)) ? `${key}=${FILTERED}` : pair
    })
    .join('&')
}

/** The allowed headers only, lowercase names, repeated values joined with `, `. */
export function pickHeaders(
  headers: IncomingHttpHeaders,
  allowed: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of allowed) {
    const value = headers[name.toLowerCase()]
    if (value !== undefined)
      out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}
