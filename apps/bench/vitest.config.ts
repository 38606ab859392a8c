import { defineTisProject } from '@tis/test-utils/vitest'

export default defineTisProject('bench', { testTimeout: 60_000, hookTimeout: 60_000 })
