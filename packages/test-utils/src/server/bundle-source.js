// @ts-check
// Plain JavaScript, run by node as a child process: `node bundle-source.js <entry.ts> <out.mjs>`.
// Bundles one entry point of an app from its TypeScript sources into one ESM file (see
// source-bundle.ts), then exits.
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const [entry, outfile] = process.argv.slice(2)
if (!entry || !outfile) throw new Error('usage: bundle-source.js <entry.ts> <out.mjs>')

/**
 * npm packages stay outside the bundle, imported by the absolute path esbuild resolved from the
 * importing file (as Node would), so the bundle runs from any directory with the very modules
 * the sources use; workspace packages (`@tis/*`) are bundled from their source, as the server's
 * tsup build does.
 * @type {import('esbuild').Plugin}
 */
const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(plugin) {
    plugin.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@tis/') || args.path.startsWith('node:')) return undefined
      if (args.pluginData === 'resolving') return undefined
      const resolved = await plugin.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'resolving',
      })
      if (resolved.errors.length > 0 || !resolved.path) return undefined
      return { path: resolved.path, external: true }
    })
  },
}

await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  conditions: ['@tis/source'],
  // Every module sees the entry's URL, so paths the sources derive from it (`../package.json`,
  // the docs folder, `./cli.js` beside main) are what they are when the entry runs from source.
  define: { 'import.meta.url': JSON.stringify(pathToFileURL(entry).href) },
  plugins: [externalNpmPackages],
  logLevel: 'error',
})
