import { gunzipSync } from 'node:zlib'
import type { FuzzReply, FuzzRequest } from './server'

/**
 * Bugs the fuzzer found that are not fixed yet. A 500 whose request matches one is tallied
 * instead of failing the property, so the run goes on to find other bugs; each has a minimal
 * reproducer as an `it.fails` in fuzz.e2e.test.ts. Delete the entry once the bug is fixed.
 */
export interface KnownBug {
  readonly id: string
  readonly matches: (request: FuzzRequest) => boolean
}

/**
 * Date-times that pass validation (years 0001–9999, offsets up to ±15:59) but whose UTC instant
 * lies outside years 0001–9999; the store sends `toISOString()` (`+010000-…`, `0000-…`), which
 * PostgreSQL refuses.
 */
export const OUT_OF_RANGE_INSTANTS = [
  '9999-12-31T23:59:60Z',
  '0001-01-01T00:00:00+15:59',
  '9999-12-31T23:59:59-15:59',
] as const

function bodyText(request: FuzzRequest): string {
  const { body } = request
  if (body === undefined) return ''
  if (typeof body === 'string') return body
  try {
    return new TextDecoder().decode(gunzipSync(body))
  } catch {
    return new TextDecoder().decode(body)
  }
}

const isRead = (request: FuzzRequest) => request.method === 'GET'

/** The open bugs. */
export const KNOWN_BUGS: readonly KnownBug[] = [
  {
    id: 'B1: ingest 500 on a date-time whose UTC instant is outside years 0001–9999',
    matches: (r) => !isRead(r) && OUT_OF_RANGE_INSTANTS.some((d) => bodyText(r).includes(d)),
  },
  {
    id: 'B2: read 500 on since/until whose UTC instant is outside years 0001–9999',
    matches: (r) =>
      isRead(r) && OUT_OF_RANGE_INSTANTS.some((d) => r.path.includes(encodeURIComponent(d))),
  },
  {
    id: 'B3: read 500 on a NUL (%00) in a query parameter or path id',
    matches: (r) => isRead(r) && r.path.includes('%00'),
  },
]

/** The known bug that explains `reply` to `request`, if any. */
export function knownBug(request: FuzzRequest, reply: FuzzReply): KnownBug | undefined {
  if (reply.status !== 500 || reply.text !== '{"error":"Internal server error"}') return undefined
  return KNOWN_BUGS.find((bug) => bug.matches(request))
}
