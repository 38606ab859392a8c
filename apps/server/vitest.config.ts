import { defineTisProject } from '@tis/test-utils/vitest'

export default defineTisProject('server', {
  // One PostgreSQL per test run (shared with other projects' globalSetup), or TEST_DATABASE_URL.
  globalSetup: ['@tis/test-utils/postgres-global-setup'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
})
