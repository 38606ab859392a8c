import { defineTisConfig } from '@tis/tsconfig/tsup'

export default defineTisConfig({ platform: 'browser', target: 'es2022' })
