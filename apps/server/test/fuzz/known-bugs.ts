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

const INGEST_PATHS = /^\/api\/v1\/(ingest_events|check_ins|deployments|mobile_ingest_tokens)/

/** The open bugs (B1–B3 and B5 are fixed; their reproducers are plain tests). */
export const KNOWN_BUGS: readonly KnownBug[] = [
  {
    id: 'B4: transactions/metrics 500 when until is less than the default window after 0001-01-01',
    matches: (r) =>
      r.method === 'GET' &&
      /\/(transactions|metrics)\?/.test(r.path) &&
      /until=0001-01-0[12]T/i.test(r.path),
  },
  {
    id: 'B6: management 500 on a NUL character in a string field',
    matches: (r) =>
      r.method !== 'GET' && !INGEST_PATHS.test(r.path) && bodyText(r).includes('\\u0000'),
  },
]

/** The known bug that explains `reply` to `request`, if any. */
export function knownBug(request: FuzzRequest, reply: FuzzReply): KnownBug | undefined {
  if (reply.status !== 500 || reply.text !== '{"error":"Internal server error"}') return undefined
  return KNOWN_BUGS.find((bug) => bug.matches(request))
}
