import { defineTisProject } from '@tis/test-utils/vitest'

// The browser suites drive a real headless Chromium that shares two cores with the rest of the run.
export default defineTisProject('browser', { testTimeout: 30_000, hookTimeout: 60_000 })
