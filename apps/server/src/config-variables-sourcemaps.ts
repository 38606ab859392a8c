import { type ConfigVariable, integer } from './config-rules'

/**
 * The caps of the source-map upload API (docs/sourcemaps.md "Limits"; past them, 413) and the
 * bound of the parsed-map cache frames are resolved with.
 */
export const SOURCEMAP_VARIABLES = {
  SERVICE_SOURCEMAPS_CHUNK_BYTES: {
    description:
      'Bytes per chunk of a source-map upload, advertised to sentry-cli and the bundler plugins as `chunkSize` and `maxRequestSize` (one chunk per request). Chunk uploads may be this plus 64 KiB, whatever SERVICE_MAX_BODY_BYTES says; a proxy in front must allow as much.',
    default: '2097152',
    schema: integer(65_536),
  },
  SERVICE_SOURCEMAPS_MAX_BUNDLE_BYTES: {
    description: 'Largest source-map bundle (the zip as uploaded, all its chunks), in bytes.',
    default: '67108864',
    schema: integer(1),
  },
  SERVICE_SOURCEMAPS_MAX_UNPACKED_BYTES: {
    description: "Largest total of a bundle's files once unzipped, in bytes.",
    default: '268435456',
    schema: integer(1),
  },
  SERVICE_SOURCEMAPS_MAX_BUNDLE_FILES: {
    description: 'Most files in one source-map bundle.',
    default: '10000',
    schema: integer(1),
  },
  SERVICE_SOURCEMAPS_MAX_PROJECT_BYTES: {
    description:
      "Most bytes of source-map files one project may keep (counted as the project's disk use shows them); an upload past it gets 413 until old bundles are deleted or expire.",
    default: '1073741824',
    schema: integer(1),
  },
  SERVICE_SOURCEMAPS_CACHE_BYTES: {
    description:
      'Bound of the cache of parsed source maps that the projection and the read API resolve JavaScript frames with, in bytes of map files (a parsed map takes about two to three times its file in memory). A map larger than this is parsed each time it is needed.',
    default: '134217728',
    schema: integer(0),
  },
} as const satisfies Record<string, ConfigVariable>
