import { defineTisProject } from '@tis/test-utils/vitest'

export default defineTisProject('example-deploy', { testTimeout: 30_000, hookTimeout: 60_000 })
