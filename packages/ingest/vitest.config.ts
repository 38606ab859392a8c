import { defineTisProject } from '@tis/test-utils/vitest'

export default defineTisProject('ingest', {
  // The engine's own suites (test/*.int.test.ts) open a migrated PGlite store each.
  testTimeout: 30_000,
  hookTimeout: 60_000,
})
