import type { Request } from 'express'

/** The route part of a transaction name when no route matched (one name for every such path). */
export const UNMATCHED = '<unmatched>'

const patterns = new WeakMap<object, string>()

function join(base: string, path: unknown): string {
  const tail = String(path)
  if (!base) return tail || '/'
  return tail === '/' ? base : `${base}${tail}`
}

/**
 * Remembers the full route pattern (mount path + route path) when the router matches one.
 * Express assigns `req.route` right when it dispatches to the route, which is the only moment
 * `req.baseUrl` is still the mount path of that route's router: by the time a response finishes,
 * or an error has propagated to an outer router, `baseUrl` may have been restored.
 */
export function trackRoute(req: Request): void {
  let current: unknown = req.route
  const descriptor = Object.getOwnPropertyDescriptor(req, 'route')
  // Someone else owns `req.route`: `routeOf` falls back to reading it at the end.
  if (descriptor && !descriptor.configurable) return
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => current,
    set(value: unknown) {
      current = value
      try {
        const path = (value as { path?: unknown } | undefined)?.path
        if (path !== undefined) patterns.set(req, join(req.baseUrl ?? '', path))
      } catch {
        // a route object we cannot read leaves the last pattern in place
      }
    },
  })
}

/** The matched route pattern, e.g. `/orders/:id`, or `undefined` when no route matched. */
export function routeOf(req: Request): string | undefined {
  const tracked = patterns.get(req)
  if (tracked !== undefined) return tracked
  const path = (req.route as { path?: unknown } | undefined)?.path
  return path === undefined ? undefined : join(req.baseUrl ?? '', path)
}

/** The request's path without its query string. */
export const pathOf = (req: Request): string =>
  String(req.originalUrl ?? req.url ?? '').split('?')[0] ?? ''

/** The query string without `?`, or `''`. */
export function queryOf(req: Request): string {
  const url = String(req.originalUrl ?? req.url ?? '')
  const at = url.indexOf('?')
  return at < 0 ? '' : url.slice(at + 1)
}

// A global or sticky RegExp keeps `lastIndex` between calls; every test starts from 0.
function matches(rule: RegExp, value: string | undefined): boolean {
  if (value === undefined) return false
  rule.lastIndex = 0
  return rule.test(value)
}

/** Whether one of `rules` matches the route pattern or the path. */
export function isIgnored(
  rules: readonly (string | RegExp)[] | undefined,
  route: string | undefined,
  path: string,
): boolean {
  return (rules ?? []).some((rule) =>
    typeof rule === 'string'
      ? rule === route || rule === path
      : matches(rule, route) || matches(rule, path),
  )
}
