// URLs of frames, uploaded files and map references, as Sentry's symbolicator matches them
// (`get_release_file_candidate_urls`, `resolve_sourcemap_url`): uploads name files `~/path`
// (any host) or by their full URL, frames carry what the browser or runtime saw.

const SCHEME = /^[a-z][a-z0-9+.-]*:/i
const WITH_HOST = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i

const withoutFragment = (url: string) => url.split('#', 1)[0] ?? url
const withoutQuery = (url: string) => url.split('?', 1)[0] ?? url

/** `~` + the path (and query) of a URL or an absolute path; `undefined` for anything else. */
function tildeOf(url: string): string | undefined {
  if (url.startsWith('~/')) return url
  const host = WITH_HOST.exec(url)
  if (host) return `~${url.slice(host[0].length) || '/'}`
  return url.startsWith('/') ? `~${url}` : undefined
}

/**
 * The uploaded names a frame's file may have, in order: the URL without `#fragment`, that
 * without `?query`, `~` + its path (with the query), that without the query.
 */
export function candidateUrls(url: string): string[] {
  const bare = withoutFragment(url)
  const tilde = tildeOf(bare)
  const all = [bare, withoutQuery(bare)]
  if (tilde !== undefined) all.push(tilde, withoutQuery(tilde))
  return [...new Set(all)]
}

/** How a problem names a file: `~/path` without the query, else as sent. */
export function displayUrl(url: string): string {
  const bare = withoutQuery(withoutFragment(url))
  return tildeOf(bare) ?? bare
}

/** `ref` (relative, absolute or `data:`) resolved against `base` (a URL, `~/path` or a path). */
export function joinUrl(base: string, ref: string): string {
  if (SCHEME.test(ref)) return ref
  try {
    if (base.startsWith('~/')) {
      const url = new URL(ref, `http://tilde.invalid${base.slice(1)}`)
      return `~${url.pathname}${url.search}`
    }
    if (SCHEME.test(base)) return new URL(ref, base).href
    if (base.startsWith('/')) return decodeURI(new URL(ref, `file://${base}`).pathname)
  } catch {
    // An unparsable base: the reference as written is the best guess.
  }
  return ref
}

/** The target of the last `//# sourceMappingURL=` (or `//@`) comment of a script. */
export function sourceMappingUrlOf(script: string): string | undefined {
  const at = Math.max(
    script.lastIndexOf('//# sourceMappingURL='),
    script.lastIndexOf('//@ sourceMappingURL='),
  )
  if (at < 0) return undefined
  return /^\S+/.exec(script.slice(at + '//# sourceMappingURL='.length))?.[0]
}

/** The bytes of a `data:` URL (base64 or percent-encoded), `undefined` when it is none. */
export function dataUrlBytes(url: string): Uint8Array | undefined {
  const m = /^data:([^,]*),(.*)$/s.exec(url)
  if (!m) return undefined
  const payload = m[2] ?? ''
  try {
    if (/;base64$/i.test(m[1] ?? '')) return Uint8Array.from(atob(payload), (c) => c.charCodeAt(0))
    return new TextEncoder().encode(decodeURIComponent(payload))
  } catch {
    return undefined
  }
}

/** A frame's file is JavaScript's when its path ends in `.js`, `.mjs` or `.cjs`. */
export const isJavaScriptFile = (file: string): boolean =>
  /\.[mc]?js$/i.test(withoutQuery(withoutFragment(file)))

/** Original paths that are not the application's: dependencies and bundler runtimes. */
export const isLibraryPath = (path: string): boolean =>
  /(^|[/\\])node_modules[/\\]|webpack\/bootstrap|\(webpack\)|webpack\/runtime/.test(path)
