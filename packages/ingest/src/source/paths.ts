/** Where a frame's file is in the repository, or why it is not in it. */
export type PathMapping =
  | { readonly inRepository: true; readonly path: string }
  | { readonly inRepository: false; readonly reason: string }

// Files of dependencies, runtimes and the standard library: never the project's own code.
const LIBRARY =
  /(^|\/)(node_modules|bower_components|site-packages|dist-packages|vendor\/bundle|\.bundle|gems|\.cargo|\.rustup)\//
const RUNTIME = /^(node:|internal\/|native$|<|\[|wasm:|chrome-extension:|moz-extension:|safari-)/

/**
 * Normalises a path prefix as set in the project's settings: backslashes become `/`, and it ends
 * with `/` unless it is empty. `file://` prefixes are read as paths.
 */
export function normalizePathPrefix(prefix: string): string {
  let p = prefix.trim().replaceAll('\\', '/')
  if (p.startsWith('file://')) p = p.slice('file://'.length)
  return p === '' || p.endsWith('/') ? p : `${p}/`
}

function withoutQuery(s: string): string {
  return s.replace(/[?#].*$/, '')
}

/** `webpack://app/./src/x.ts`, `webpack:///./src/x.ts`, `webpack-internal:///./src/x.ts` → `src/x.ts`. */
function webpackPath(url: string): string {
  const rest = url.replace(/^webpack(-internal)?:\/\//, '')
  // `webpack:///src/x` has no namespace; `webpack://my-app/src/x` names the bundle first.
  return rest.startsWith('/') ? rest.slice(1) : rest.slice(rest.indexOf('/') + 1)
}

function relative(path: string): PathMapping {
  const clean = path.replace(/^(\.\/)+/, '').replace(/\/{2,}/g, '/')
  if (clean === '' || clean.startsWith('/')) return notIn('the file has no path')
  if (clean.split('/').some((s) => s === '..' || s === '.')) {
    return notIn(`${clean} leaves the repository root`)
  }
  return LIBRARY.test(clean)
    ? notIn(`${clean} is a dependency, not the project's code`)
    : { inRepository: true, path: clean }
}

function decoded(s: string): string {
  try {
    return decodeURI(s)
  } catch {
    return s
  }
}

const notIn = (reason: string): PathMapping => ({ inRepository: false, reason })

/**
 * Maps a frame's file to a path in the repository:
 * - `webpack://` and `webpack-internal://` URLs: the path after the bundle name;
 * - `file://` URLs and absolute paths (`/app/src/x.ts`, `C:\app\x.ts`): the rest after
 *   `pathPrefix`; without a prefix, or when it does not start with it, not in the repository;
 * - `http(s)://` URLs: the rest after `pathPrefix` when the URL starts with it, else not in the
 *   repository (served bundles are rarely files of the repository);
 * - relative paths (`app/models/user.rb`, `./src/x.ts`): as they are.
 * Dependencies (`node_modules/`, `site-packages/`, gems, …) and runtime frames (`node:fs`,
 * `<anonymous>`, `native`) are never in the repository, nor is a path with `..`.
 */
export function mapToRepositoryPath(filename: string | null, pathPrefix: string): PathMapping {
  if (filename === null || filename.trim() === '') return notIn('the frame names no file')
  const file = filename.trim()
  if (RUNTIME.test(file)) return notIn(`${file} is part of the runtime`)
  if (/^webpack(-internal)?:\/\//.test(file)) return relative(webpackPath(withoutQuery(file)))
  const prefix = normalizePathPrefix(pathPrefix)
  if (/^https?:\/\//i.test(file)) {
    const url = withoutQuery(file)
    if (prefix !== '' && url.startsWith(prefix)) return relative(url.slice(prefix.length))
    return notIn(`${url} is a served URL; set a path prefix that maps it to the repository`)
  }
  let path = file.replaceAll('\\', '/')
  if (path.startsWith('file://')) path = decoded(withoutQuery(path.slice('file://'.length)))
  const absolute = path.startsWith('/') || /^[A-Za-z]:\//.test(path)
  if (!absolute) return relative(path)
  if (LIBRARY.test(path)) return notIn(`${path} is a dependency, not the project's code`)
  if (prefix === '') {
    return notIn(`${path} is an absolute path; set a path prefix to map it to the repository`)
  }
  // Windows drive letters compare case-insensitively.
  const starts = /^[A-Za-z]:\//.test(prefix)
    ? path.toLowerCase().startsWith(prefix.toLowerCase())
    : path.startsWith(prefix)
  return starts
    ? relative(path.slice(prefix.length))
    : notIn(`${path} is outside the path prefix ${prefix}`)
}
