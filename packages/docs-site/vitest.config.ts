import { defineTisProject } from '@tis/test-utils/vitest'

export default defineTisProject('docs-site')
