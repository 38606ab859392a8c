import { defineTisProject } from './src/vitest-project.js'

export default defineTisProject('test-utils', { testTimeout: 60_000, hookTimeout: 60_000 })
