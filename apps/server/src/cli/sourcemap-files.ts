// What `tis sourcemaps upload <dir>` sends: the JavaScript files and source maps below a
// directory, each with its url and debug ID, as `sentry-cli sourcemaps upload` finds them.
import { readdir, readFile } from 'node:fs/promises'
import { join, posix } from 'node:path'
import type { BundleFileInput } from '@tis/ingest'

const JS = /\.[cm]?js$/
const MAP = /\.map$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Every file below `dir`, as paths relative to it with `/` separators, sorted. */
async function walk(dir: string, under = ''): Promise<string[]> {
  const found: string[] = []
  for (const entry of await readdir(join(dir, under), { withFileTypes: true })) {
    const path = under ? `${under}/${entry.name}` : entry.name
    if (entry.isDirectory()) found.push(...(await walk(dir, path)))
    else if (entry.isFile() && (JS.test(entry.name) || MAP.test(entry.name))) found.push(path)
  }
  return found.sort()
}

/** The value of the last `//# name=value` comment (`//@` too), as the tools read it. */
function magicComment(text: string, name: string): string | undefined {
  const all = [...text.matchAll(new RegExp(`//[#@] ${name}=(\\S+)`, 'g'))]
  return all.at(-1)?.[1]
}

/** A map's own debug ID: `debug_id` (sentry-cli 2) or `debugId` (sentry-cli 3). */
function mapDebugId(text: string): string | undefined {
  try {
    const map = JSON.parse(text) as { debug_id?: unknown; debugId?: unknown }
    const id = map.debug_id ?? map.debugId
    return typeof id === 'string' && UUID.test(id.toLowerCase()) ? id.toLowerCase() : undefined
  } catch {
    return undefined
  }
}

/** `url-prefix` joined to a relative path: `~/` + `js/app.js` → `~/js/app.js`. */
export function artifactUrl(prefix: string, path: string): string {
  return `${prefix.replace(/\/+$/, '')}/${path}`
}

/**
 * The files of `dir` to bundle: every `.js`/`.mjs`/`.cjs` (`minified_source`, with its
 * `sourcemap` reference and debug ID as headers) and `.map` (`source_map`). A file is paired
 * with the map its `//# sourceMappingURL=` names, else with `<file>.map`; a file and its map
 * share the debug ID that either carries (the `//# debugId=` comment, the map's field).
 */
export async function collectArtifacts(dir: string, urlPrefix: string): Promise<BundleFileInput[]> {
  const paths = await walk(dir)
  const bytes = new Map<string, Uint8Array>()
  const texts = new Map<string, string>()
  for (const path of paths) {
    const content = await readFile(join(dir, ...path.split('/')))
    bytes.set(path, content)
    texts.set(path, content.toString('utf8'))
  }
  const mapIds = new Map<string, string | undefined>()
  for (const path of paths) if (MAP.test(path)) mapIds.set(path, mapDebugId(texts.get(path)!))

  const jsHeaders = new Map<string, Record<string, string>>()
  for (const path of paths.filter((p) => JS.test(p))) {
    const text = texts.get(path)!
    const written = magicComment(text, 'sourceMappingURL')
    const named =
      written && !written.startsWith('data:')
        ? posix.normalize(posix.join(posix.dirname(path), written.replace(/[?#].*$/, '')))
        : undefined
    const map =
      named && mapIds.has(named) ? named : mapIds.has(`${path}.map`) ? `${path}.map` : undefined
    const fromComment = magicComment(text, 'debugId')?.toLowerCase()
    const id =
      (fromComment && UUID.test(fromComment) ? fromComment : undefined) ?? (map && mapIds.get(map))
    if (map && id && !mapIds.get(map)) mapIds.set(map, id)
    jsHeaders.set(path, {
      ...(id && { 'debug-id': id }),
      ...((written ?? map) && { sourcemap: written ?? posix.relative(posix.dirname(path), map!) }),
    })
  }
  return paths.map((path) => {
    const id = mapIds.get(path)
    return {
      url: artifactUrl(urlPrefix, path),
      type: JS.test(path) ? 'minified_source' : 'source_map',
      content: bytes.get(path)!,
      headers: jsHeaders.get(path) ?? (id ? { 'debug-id': id } : {}),
    }
  })
}
