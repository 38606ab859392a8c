import { defineTisProject } from '@tis/test-utils/vitest'

export default defineTisProject('example-embedded', { testTimeout: 30_000, hookTimeout: 60_000 })
