// What the SDK sends (its fetch transport) plus the spec's alternative key header.
const CORS_HEADERS: readonly (readonly [string, string])[] = [
  ['Access-Control-Allow-Methods', 'POST, OPTIONS'],
  [
    'Access-Control-Allow-Headers',
    'Authorization, X-Api-Key, Content-Type, Content-Encoding, X-Logister-Batch-Id, X-Sentry-Auth',
  ],
  [
    'Access-Control-Expose-Headers',
    'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Sentry-Rate-Limits',
  ],
  // Chromium caps the preflight cache at two hours.
  ['Access-Control-Max-Age', '7200'],
]

/**
 * CORS of the browser-facing ingest operations (`cors: true` in the table): given the allowed
 * origins (`['*']` allows any), puts the CORS headers on an answer when its `Origin` is allowed
 * (errors included, so pages can read a 429's `Retry-After`), and `Vary: Origin` when the
 * answer depends on it. A disallowed origin gets the same answers without them, which browsers
 * refuse to hand over.
 */
export function createCors(origins: readonly string[]) {
  const any = origins.includes('*')
  const allowed = new Set(origins)
  return (headers: Headers, origin: string | null): void => {
    if (!any) headers.append('Vary', 'Origin')
    const allowOrigin = any ? '*' : origin !== null && allowed.has(origin) ? origin : null
    if (allowOrigin === null) return
    headers.set('Access-Control-Allow-Origin', allowOrigin)
    for (const [name, value] of CORS_HEADERS) headers.set(name, value)
  }
}
