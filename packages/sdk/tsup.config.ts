import { defineTisConfig } from '@tis/tsconfig/tsup'
import { mangleProps } from './mangle'

export default defineTisConfig({
  platform: 'neutral',
  esbuildOptions(options) {
    options.mangleProps = mangleProps
  },
})
