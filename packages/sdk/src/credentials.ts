/** A mobile ingest token as the token endpoint returns it (section 5.5). */
export interface IngestToken {
  readonly token: string
  /** Expiry as an ISO date-time (the endpoint's `expires_at`), a `Date` or epoch milliseconds. */
  readonly expires_at?: string | number | Date
  /** camelCase alias of `expires_at`. */
  readonly expiresAt?: string | number | Date
}

/** Fetches a fresh mobile ingest token, typically from the application's own backend. */
export type TokenProvider = () => Promise<IngestToken>

/** Resolves the bearer credential; `refresh` forces a new token from the provider. */
export type CredentialSource = (refresh: boolean) => Promise<string>

/**
 * A credential source over a fixed API key, or over a token provider whose token is kept in
 * memory and fetched again `leewayMs` before `expires_at` (or when `refresh` is asked for after
 * a 401). Concurrent callers share one provider call.
 */
export function createCredentialSource(
  apiKey: string | undefined,
  tokenProvider: TokenProvider | undefined,
  leewayMs = 30_000,
): CredentialSource {
  if (!tokenProvider) return async () => apiKey ?? ''
  let token: string | undefined
  let expiresAt = 0
  let pending: Promise<string> | undefined
  return async (refresh) => {
    if (!refresh && token !== undefined && Date.now() < expiresAt - leewayMs) return token
    pending ??= tokenProvider()
      .then((fresh) => {
        const at = +new Date(fresh.expires_at ?? fresh.expiresAt ?? '')
        // An expiry missing or unreadable counts as twice the leeway from now.
        expiresAt = Number.isNaN(at) ? Date.now() + leewayMs * 2 : at
        token = fresh.token
        return token
      })
      .finally(() => {
        pending = undefined
      })
    return pending
  }
}
