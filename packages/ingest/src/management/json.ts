import type { ApiKey, Project, RateLimits } from '@tis/schema'
import { type EngineRequest, readHeader } from '../http'
import type { ApiKeyRecord, ProjectRecord, RateLimitOverride } from '../ports'
import type { RateLimitSettings } from '../rate-limit'

/**
 * The base URL a project's DSN names for a request: the server's public URL, else the request's
 * `Host` (and `X-Forwarded-Proto`); `null` without either.
 */
export function dsnBase(request: EngineRequest, publicUrl: string | undefined): string | null {
  if (publicUrl) return publicUrl
  const host = readHeader(request.headers, 'host')
  if (!host) return null
  const proto = readHeader(request.headers, 'x-forwarded-proto')?.split(',')[0]?.trim()
  return `${proto === 'https' ? 'https' : 'http'}://${host}`
}

/**
 * The Sentry DSN of a project served at `base` (the server's public URL, path included):
 * `<scheme>://<key>@<host><path>/<number>`; `null` without a base or a store that has none.
 */
export function sentryDsn(p: ProjectRecord, base: string | null): string | null {
  if (!base || p.number == null || !p.sentryKey) return null
  try {
    const url = new URL(base)
    const path = url.pathname.replace(/\/+$/, '')
    return `${url.protocol}//${p.sentryKey}@${url.host}${path}/${p.number}`
  } catch {
    return null
  }
}

/** JSON of a project; `base` is the server's public URL its DSN names. */
export function projectJson(p: ProjectRecord, base: string | null = null): Project {
  return {
    id: p.id,
    name: p.name,
    integration_kind: p.integrationKind,
    status: p.status,
    owner_id: p.ownerId,
    created_at: p.createdAt.toISOString(),
    archived_at: p.archivedAt?.toISOString() ?? null,
    number: p.number ?? null,
    dsn: sentryDsn(p, base),
  }
}

/** The effective limits of a project (`defaults` where it has no override) and its overrides. */
export function rateLimitJson(
  override: RateLimitOverride | null,
  defaults: RateLimitSettings,
): RateLimits {
  return {
    requests: override?.requests ?? defaults.requests,
    period_seconds: override?.periodSeconds ?? defaults.periodSeconds,
    auth_failure_requests: override?.authFailureRequests ?? defaults.authFailures,
    overrides: {
      requests: override?.requests ?? null,
      period_seconds: override?.periodSeconds ?? null,
      auth_failure_requests: override?.authFailureRequests ?? null,
    },
  }
}

/** JSON of a project API key (never its token). */
export function apiKeyJson(k: ApiKeyRecord): ApiKey {
  return {
    id: k.id,
    name: k.name,
    created_at: k.createdAt.toISOString(),
    revoked_at: k.revokedAt?.toISOString() ?? null,
  }
}
