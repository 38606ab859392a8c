import { defineTisConfig } from '@tis/tsconfig/tsup'

// An application, not a library: ESM only, no declarations, and the workspace packages bundled
// from their TypeScript source so `node dist/main.js` needs no other build. npm dependencies stay
// external and resolve from node_modules.
export default defineTisConfig({
  entry: ['src/main.ts', 'src/cli.ts'],
  format: ['esm'],
  dts: false,
  target: 'node20',
  platform: 'node',
  noExternal: [/^@tis\//],
  esbuildOptions(options) {
    options.conditions = ['@tis/source']
  },
})
