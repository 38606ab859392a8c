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

/** The open bugs (B1–B6 are fixed; their reproducers are plain tests). */
export const KNOWN_BUGS: readonly KnownBug[] = [
  {
    id: 'B7: mobile token 500 on a NUL character in a string field',
    matches: (r) => r.path === '/api/v1/mobile_ingest_tokens' && bodyText(r).includes('\\u0000'),
  },
]

/** The known bug that explains `reply` to `request`, if any. */
export function knownBug(request: FuzzRequest, reply: FuzzReply): KnownBug | undefined {
  if (reply.status !== 500 || reply.text !== '{"error":"Internal server error"}') return undefined
  return KNOWN_BUGS.find((bug) => bug.matches(request))
}
