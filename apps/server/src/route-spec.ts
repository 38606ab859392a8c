import type { Handler } from 'hono'

/** One route of the server: a method, a Hono path pattern and its handler. */
export interface RouteSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  readonly path: string
  readonly handler: Handler
}
