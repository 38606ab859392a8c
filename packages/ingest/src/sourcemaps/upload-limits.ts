// The caps of the upload API (docs/sourcemaps.md "Limits"): what one chunk, one request, one
// bundle and one project may hold. Past any of them the API answers 413 naming the cap.

const MiB = 1024 * 1024

/** The caps of the source-map upload API. */
export interface SourceMapLimits {
  /**
   * Bytes per chunk, advertised as `chunkSize` and `maxRequestSize` (one chunk per request):
   * 2 MiB keeps every request under common proxy caps (Bugsink's value after 413s).
   * @default 2097152
   */
  readonly chunkSize: number
  /**
   * Bytes of one assembled bundle (the zip as uploaded, `SERVICE_SOURCEMAPS_MAX_BUNDLE_BYTES`).
   * @default 67108864 (64 MiB)
   */
  readonly maxBundleBytes: number
  /**
   * Bytes of a bundle's files once unpacked: a small zip may inflate to a lot.
   * @default 268435456 (256 MiB)
   */
  readonly maxUnpackedBytes: number
  /**
   * Files in one bundle (`SERVICE_SOURCEMAPS_MAX_BUNDLE_FILES`).
   * @default 10000
   */
  readonly maxFilesPerBundle: number
  /**
   * Bytes of all stored artifacts of one project (`SERVICE_SOURCEMAPS_MAX_PROJECT_BYTES`).
   * @default 1073741824 (1 GiB)
   */
  readonly maxProjectBytes: number
}

/** The documented defaults of {@link SourceMapLimits}. */
export const DEFAULT_SOURCE_MAP_LIMITS: SourceMapLimits = {
  chunkSize: 2 * MiB,
  maxBundleBytes: 64 * MiB,
  maxUnpackedBytes: 256 * MiB,
  maxFilesPerBundle: 10_000,
  maxProjectBytes: 1024 * MiB,
}

/** What the host must let through on a chunk POST: a chunk, gzip's worst case and the form. */
export function chunkBodyCap(limits: Pick<SourceMapLimits, 'chunkSize'>): number {
  return limits.chunkSize + 64 * 1024
}
