import { build } from 'esbuild'

/**
 * Bundles `contents` (a module that re-exports what a test page needs, e.g.
 * `export * from '@tis/sdk'`) into one classic script that defines the global `globalName`,
 * as a site would ship it. Imports resolve from `resolveDir` (a package's folder), workspace
 * packages to their sources (`@tis/source`), so no build is needed first.
 */
export async function bundleForPage(
  contents: string,
  resolveDir: string,
  globalName: string,
): Promise<string> {
  const result = await build({
    stdin: { contents, resolveDir, loader: 'ts' },
    bundle: true,
    format: 'iife',
    globalName,
    platform: 'browser',
    target: 'es2022',
    conditions: ['@tis/source'],
    write: false,
    logLevel: 'silent',
  })
  return result.outputFiles[0]!.text
}
