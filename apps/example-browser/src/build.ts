import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** Where the tis server is and the key the page sends with, baked into the bundle. */
export interface TisConfig {
  readonly tisUrl: string
  readonly apiKey: string
}

/** Bundles `src/app.ts` (with @tis/sdk and @tis/browser) into one script for the page. */
export async function buildApp(config: TisConfig): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./app.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    // Inside this monorepo, bundle the packages' TypeScript sources; elsewhere this is a no-op.
    conditions: ['@tis/source'],
    define: { TIS_URL: JSON.stringify(config.tisUrl), TIS_API_KEY: JSON.stringify(config.apiKey) },
    write: false,
    logLevel: 'silent',
  })
  const [output] = result.outputFiles
  if (!output) throw new Error('esbuild produced no output')
  return output.text
}
