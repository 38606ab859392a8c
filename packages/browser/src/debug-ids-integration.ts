import type { Client, Integration } from '@tis/sdk'
import { describeException } from '@tis/sdk'
import { type DebugImage, debugImages } from './debug-ids'

/**
 * Sends, with every error, the debug IDs that `sentry-cli sourcemaps inject` and Sentry's
 * bundler plugins write into the bundles (`globalThis._sentryDebugIds`), so the server finds
 * each frame's source map by the file's debug ID instead of by release and URL:
 * `context.debug_meta = { images: [{ type: 'sourcemap', code_file, debug_id }] }`, one image
 * per file that the error's frames (causes and members included) name. Any JavaScript runtime;
 * it lives here rather than in the `@tis/sdk` core to keep the core within its size budget.
 * Never throws: without debug IDs the error is sent as it would be without the integration.
 *
 * @example createClient({ baseUrl, apiKey, integrations: [debugIdsIntegration()] })
 */
export function debugIdsIntegration(): Integration<Client> {
  return {
    name: 'debugIds',
    setup(client) {
      // Wrapping the client's own method covers every caller of it, integrations included.
      const capture = client.captureException
      client.captureException = (error, options = {}) => {
        let images: DebugImage[] | undefined
        try {
          images = debugImages(describeException(error))
        } catch {
          // A hostile `_sentryDebugIds` costs the images, never the error.
        }
        return capture(
          error,
          images
            ? { ...options, context: { ...options.context, debug_meta: { images } } }
            : options,
        )
      }
      return () => {
        client.captureException = capture
      }
    },
  }
}
