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

/** The open bugs (B1–B8 are fixed; their reproducers are plain regression tests). */
export const KNOWN_BUGS: readonly KnownBug[] = []

/** The known bug that explains `reply` to `request`, if any. */
export function knownBug(request: FuzzRequest, reply: FuzzReply): KnownBug | undefined {
  if (reply.status !== 500 || reply.text !== '{"error":"Internal server error"}') return undefined
  return KNOWN_BUGS.find((bug) => bug.matches(request))
}
