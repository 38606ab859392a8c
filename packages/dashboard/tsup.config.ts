import { defineTisConfig } from '@tis/tsconfig/tsup'

export default defineTisConfig({ platform: 'neutral', target: 'node20' })
