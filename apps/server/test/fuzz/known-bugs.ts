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

/** The open bugs (B1–B7 are fixed; their reproducers are plain tests). */
export const KNOWN_BUGS: readonly KnownBug[] = [
  {
    id: 'B8: 500 on a NUL character in an object key of the body',
    matches: (r) =>
      r.method === 'POST' &&
      /"(?:[^"\\]|\\[^u]|\\u(?!0000))*\\u0000(?:[^"\\]|\\.)*":/.test(bodyText(r)),
  },
]

/** The known bug that explains `reply` to `request`, if any. */
export function knownBug(request: FuzzRequest, reply: FuzzReply): KnownBug | undefined {
  if (reply.status !== 500 || reply.text !== '{"error":"Internal server error"}') return undefined
  return KNOWN_BUGS.find((bug) => bug.matches(request))
}
