import { serverOpenApiDocument } from '@tis/server'
import {
  createResponseCheck,
  createResponseValidator,
  type ResponseExchange,
} from '../response-check/index'

/** The tags of the operations whose answers the harness client checks: reads, management, alerts, bundles. */
export const CHECKED_TAGS: readonly string[] = [
  'management',
  'reads',
  'account',
  'alerts',
  'sourcemaps',
]

/** The API paths every successful answer of which the document must describe. */
export const DOCUMENTED_PATHS = /^\/api\/v1\/(projects|users)(\/|$)/

let check: ((exchange: ResponseExchange) => void) | undefined

/**
 * Checks one answer of the server against its OpenAPI document (`serverOpenApiDocument()`), for
 * the read and management operations ({@link CHECKED_TAGS}) — and a 2xx answer under
 * {@link DOCUMENTED_PATHS} must have an operation; `TIS_RESPONSE_CHECK` picks what a
 * mismatch does (`strict` by default: it throws). Built on first use.
 */
export function checkServerResponse(exchange: ResponseExchange): void {
  check ??= createResponseCheck(
    createResponseValidator(serverOpenApiDocument(), {
      tags: CHECKED_TAGS,
      documented: DOCUMENTED_PATHS,
    }),
  )
  check(exchange)
}
