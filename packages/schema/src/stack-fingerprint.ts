// The default grouping key of an error from its stack. One function for the Sentry mapping
// (frames as sent) and the source-map resolver (frames resolved), so an unresolved frame keeps
// the key it always had and a resolved one never groups by a minified name.

/** How many in-app frames, innermost first, make up a stack fingerprint. */
export const STACK_FINGERPRINT_FRAMES = 10

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)

/**
 * A frame's file as grouping sees it. A browser frame's file is the script's URL: only its path
 * counts, so one error groups across the hosts a site is served from (www or not, a CDN) and the
 * cache-busting query strings of its deploys, as Sentry leaves the URL's origin out of grouping.
 */
export function groupingFile(filename: unknown): string {
  if (typeof filename !== 'string') return '?'
  const url = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(filename)
  return url ? url[1] || '/' : filename
}

/**
 * One frame's part of the key. A frame resolved by a source map (`sourcemap.resolved`) counts
 * by its original file and the function derived for it; without a derived name (its caller sat
 * in an unmapped script) by the source line's text, as Sentry's JavaScript grouping does, since
 * original line numbers move with every edit above them and minified names with every build.
 */
function framePart(frame: Record<string, unknown>): string {
  const sourcemap = frame['sourcemap']
  if (isObject(sourcemap) && sourcemap['resolved'] === true) {
    const file = groupingFile(frame['filename'])
    const name = text(frame['function'])
    if (name) return `${name}@${file}`
    const line = typeof frame['context_line'] === 'string' ? frame['context_line'].trim() : ''
    return `${file}:${line || String(frame['lineno'] ?? '?')}`
  }
  return `${text(frame['function']) ?? '?'}@${text(frame['module']) ?? groupingFile(frame['filename'])}`
}

/**
 * The default fingerprint of an error: its exception type and its first
 * {@link STACK_FINGERPRINT_FRAMES} in-app frames (innermost first, as `context.exception.frames`
 * holds them). `undefined` without a type or without an in-app frame (the error then groups by
 * its message).
 */
export function stackFingerprint(
  type: string | undefined,
  frames: readonly unknown[],
): string | undefined {
  const inApp = frames.filter(isObject).filter((f) => f['in_app'] === true)
  if (!type || inApp.length === 0) return undefined
  return `${type} ${inApp.slice(0, STACK_FINGERPRINT_FRAMES).map(framePart).join(' ')}`
}
