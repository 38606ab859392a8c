import { z } from 'zod'
import type { ReleaseListQuery, ReleaseWindow } from '../ports/release-health'
import {
  DEFAULT_PAGE_SIZE,
  filter,
  limit,
  parse,
  type QueryResult,
  type RawQuery,
  time,
} from '../reads/query-fields'
import { ADOPTION_WINDOW_MS, DEFAULT_RELEASE_WINDOW_DAYS, MAX_RELEASE_WINDOW_DAYS } from './window'

const DAY_MS = 86_400_000

/** A release list's keyset position as an opaque base64url token. */
export function encodeReleaseCursor(at: Date, version: string): string {
  const bytes = new TextEncoder().encode(JSON.stringify([at.getTime(), version]))
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

/** Decodes a token of {@link encodeReleaseCursor}; `null` for anything else. */
export function decodeReleaseCursor(token: string): ReleaseListQuery['after'] {
  if (!/^[A-Za-z0-9_-]{1,600}$/.test(token)) return null
  try {
    const binary = atob(token.replaceAll('-', '+').replaceAll('_', '/'))
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0))
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
    if (!Array.isArray(value) || value.length !== 2) return null
    const [ms, version] = value
    if (!Number.isSafeInteger(ms) || typeof version !== 'string') return null
    return { lastSeenAt: new Date(ms), version }
  } catch {
    return null
  }
}

const d = <T extends z.ZodType>(field: T, description: string) => field.meta({ description })

/** The query of `GET …/releases/:version`. */
export const RELEASE_QUERY = z.object({
  environment: d(filter, 'Exact environment; absent: all environments together.'),
  since: d(
    time,
    `Window start (RFC 3339); default ${DEFAULT_RELEASE_WINDOW_DAYS} days before \`until\`.`,
  ),
  until: d(time, 'Window end, exclusive (RFC 3339); default now.'),
})

/** The query of `GET …/releases`. */
export const RELEASE_LIST_QUERY = RELEASE_QUERY.extend({
  limit,
  cursor: z
    .string()
    .transform((token, ctx) => {
      const decoded = decodeReleaseCursor(token)
      if (!decoded) ctx.addIssue({ code: 'custom', message: 'is not a cursor of this list' })
      return decoded ?? undefined
    })
    .optional()
    .meta({ description: 'The `next_cursor` of the previous page (opaque).' }),
})

/**
 * The window of a release read: `until` defaults to now, `since` to 30 days before it; at most
 * 400 days; adoption over the 24 hours before now.
 */
export function releaseWindow(
  projectId: string,
  v: { environment?: string | undefined; since?: Date | undefined; until?: Date | undefined },
  now: Date,
): QueryResult<ReleaseWindow> {
  const until = v.until ?? now
  const since = v.since ?? new Date(until.getTime() - DEFAULT_RELEASE_WINDOW_DAYS * DAY_MS)
  if (since.getTime() >= until.getTime())
    return { ok: false, errors: ['since must be before until'] }
  if (until.getTime() - since.getTime() > MAX_RELEASE_WINDOW_DAYS * DAY_MS) {
    return { ok: false, errors: [`the window is longer than ${MAX_RELEASE_WINDOW_DAYS} days`] }
  }
  return {
    ok: true,
    value: {
      projectId,
      environment: v.environment ?? null,
      since,
      until,
      adoptionSince: new Date(now.getTime() - ADOPTION_WINDOW_MS),
    },
  }
}

/** Parses the query of `GET …/releases`. */
export function parseReleaseListQuery(
  projectId: string,
  raw: RawQuery,
  now: Date,
): QueryResult<ReleaseListQuery> {
  const parsed = parse(RELEASE_LIST_QUERY, raw)
  if (!parsed.ok) return parsed
  const w = releaseWindow(projectId, parsed.value, now)
  if (!w.ok) return w
  return {
    ok: true,
    value: {
      ...w.value,
      limit: parsed.value.limit ?? DEFAULT_PAGE_SIZE,
      after: parsed.value.cursor ?? null,
    },
  }
}

/** Parses the query of `GET …/releases/:version`. */
export function parseReleaseQuery(projectId: string, raw: RawQuery, now: Date) {
  const parsed = parse(RELEASE_QUERY, raw)
  return parsed.ok ? releaseWindow(projectId, parsed.value, now) : parsed
}
