import { type HeaderSource, readHeader } from '../http'
import { sha256Hex } from '../ids'
import type { CredentialRecord, CredentialStore } from '../ports'

/**
 * The token a request presents: `Authorization: Bearer <token>` or `X-Api-Key: <token>`
 * (section 5.1). `Authorization` wins when both are sent.
 */
export function presentedToken(headers: HeaderSource): string | undefined {
  const authorization = readHeader(headers, 'authorization')?.trim()
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization)
    return match?.[1]
  }
  const key = readHeader(headers, 'x-api-key')?.trim()
  return key ? key : undefined
}

/** Why a credential was refused: every reason answers 401. */
export type CredentialFailure = 'missing' | 'invalid' | 'revoked' | 'expired' | 'archived'

/** The outcome of checking a presented credential. */
export type CredentialCheck =
  | { readonly ok: true; readonly credential: CredentialRecord }
  | {
      readonly ok: false
      readonly reason: CredentialFailure
      /** The refused credential when one was found (revoked, expired, archived). */
      readonly credential?: CredentialRecord
    }

/** Options of {@link createCredentialCache}. */
export interface CredentialCacheOptions {
  /**
   * How long a looked-up credential is trusted before it is read again. Revocation and archiving
   * on another server instance take effect within this time.
   * @default 1000
   */
  readonly ttlMs?: number
  /** @default 10000 */
  readonly maxEntries?: number
  /** @default Date.now */
  readonly now?: () => number
}

/** Looks credentials up by digest with a short-lived in-process cache. */
export interface CredentialCache {
  check(headers: HeaderSource, at: Date): Promise<CredentialCheck>
  /** Forgets every cached credential (after a revocation on this instance). */
  clear(): void
}

/** Checks presented credentials against the store, caching found records for `ttlMs`. */
export function createCredentialCache(
  store: CredentialStore,
  options: CredentialCacheOptions = {},
): CredentialCache {
  const ttl = options.ttlMs ?? 1000
  const max = options.maxEntries ?? 10_000
  const now = options.now ?? Date.now
  const cache = new Map<string, { record: CredentialRecord; until: number }>()

  async function lookup(digest: string): Promise<CredentialRecord | null> {
    const hit = cache.get(digest)
    if (hit && hit.until > now()) return hit.record
    const record = await store.findCredential(digest)
    if (record) {
      if (cache.size >= max) cache.clear()
      cache.set(digest, { record, until: now() + ttl })
    } else cache.delete(digest)
    return record
  }

  return {
    async check(headers, at) {
      const token = presentedToken(headers)
      if (!token) return { ok: false, reason: 'missing' }
      if (token.length > 512) return { ok: false, reason: 'invalid' }
      const record = await lookup(sha256Hex(token))
      if (!record) return { ok: false, reason: 'invalid' }
      if (record.revokedAt) return { ok: false, reason: 'revoked', credential: record }
      if (record.expiresAt && record.expiresAt.getTime() <= at.getTime()) {
        return { ok: false, reason: 'expired', credential: record }
      }
      if (record.projectStatus !== 'active') {
        return { ok: false, reason: 'archived', credential: record }
      }
      return { ok: true, credential: record }
    },
    clear() {
      cache.clear()
    },
  }
}
