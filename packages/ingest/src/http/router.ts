import type { HttpMethod, HttpOperation } from './operation-types'

/** One path pattern of the table and the operations on it, by method. */
export interface Route<T> {
  readonly path: string
  readonly operations: ReadonlyMap<string, T>
  /** The `Allow` header of a 405 on this path: HEAD comes with GET, OPTIONS with CORS. */
  readonly allow: string
  readonly cors: boolean
  /** The names of its `:name` segments, in order. */
  readonly names: readonly string[]
  readonly pattern: RegExp | null
}

/** What a path resolves to: the route that answers the method, or the first on the path. */
export interface Match<T> {
  readonly route: Route<T>
  readonly operation: T | undefined
  readonly params: Record<string, string>
}

const decode = (value: string) => {
  if (!value.includes('%')) return value
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/**
 * A router over the operations, matching in table order: static paths by one map look-up,
 * patterns (`:name` segments) by their expression. A path with no operation for the method
 * resolves to its first route without one (the 405); no route at all is `undefined` (the 404).
 */
export function createRouter<T extends Pick<HttpOperation, 'method' | 'path' | 'cors'>>(
  operations: readonly T[],
) {
  const byPath = new Map<string, { ops: Map<string, T>; cors: boolean }>()
  for (const op of operations) {
    const entry = byPath.get(op.path) ?? { ops: new Map<string, T>(), cors: false }
    if (!entry.ops.has(op.method)) entry.ops.set(op.method, op)
    entry.cors ||= op.cors === true
    byPath.set(op.path, entry)
  }
  const statics = new Map<string, Route<T>>()
  const patterns: Route<T>[] = []
  for (const [path, { ops, cors }] of byPath) {
    const methods = new Set<string>(ops.keys())
    if (methods.has('GET')) methods.add('HEAD')
    if (cors) methods.add('OPTIONS')
    const names = [...path.matchAll(/:(\w+)/g)].map((m) => m[1] as string)
    const source = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '([^/]+)')
    const route: Route<T> = {
      path,
      operations: ops,
      allow: [...methods].sort().join(', '),
      cors,
      names,
      pattern: names.length === 0 ? null : new RegExp(`^${source}$`),
    }
    if (route.pattern === null) statics.set(path, route)
    else patterns.push(route)
  }
  const paramsOf = (route: Route<T>, path: string): Record<string, string> => {
    if (route.pattern === null) return {}
    const found = route.pattern.exec(path) as RegExpExecArray
    const params: Record<string, string> = {}
    route.names.forEach((name, i) => {
      params[name] = decode(found[i + 1] as string)
    })
    return params
  }
  return {
    /** The route and operation of `method` (HEAD as GET) on `path`. */
    match(method: HttpMethod | string, path: string): Match<T> | undefined {
      const lookup = method === 'HEAD' ? 'GET' : method
      const exact = statics.get(path)
      if (exact?.operations.has(lookup)) {
        return { route: exact, operation: exact.operations.get(lookup), params: {} }
      }
      let first: Route<T> | undefined = exact
      for (const route of patterns) {
        if (!(route.pattern as RegExp).test(path)) continue
        first ??= route
        const operation = route.operations.get(lookup)
        if (operation) return { route, operation, params: paramsOf(route, path) }
      }
      return first && { route: first, operation: undefined, params: {} }
    },
  }
}
