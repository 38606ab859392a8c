import { defineTisProject } from '@tis/test-utils/vitest'

export default defineTisProject('example-browser', { testTimeout: 30_000, hookTimeout: 60_000 })
