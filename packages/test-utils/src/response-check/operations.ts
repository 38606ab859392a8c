/** An OpenAPI document as the response check reads it: plain JSON. */
export interface OpenApiLike {
  readonly paths?: Record<string, Record<string, unknown>>
}

/** One operation of an OpenAPI document, found by method and path. */
export interface FoundOperation {
  /** Upper-case HTTP method, e.g. `GET`. */
  readonly method: string
  /** The path template, e.g. `/api/v1/projects/{id}/issues`. */
  readonly template: string
  /** `operationId`, when the document gives one. */
  readonly id?: string
  readonly tags: readonly string[]
  /** The operation object. */
  readonly operation: Record<string, unknown>
  /** JSON pointer of the operation object in the document. */
  readonly pointer: string
}

/** Escapes one JSON pointer segment (RFC 6901). */
export const pointerSegment = (segment: string) =>
  segment.replaceAll('~', '~0').replaceAll('/', '~1')

interface Template {
  readonly template: string
  readonly pattern: RegExp
  /** Literal segments: the more, the more specific (`/transactions/latency` over `/{x}`). */
  readonly literals: number
}

function compileTemplate(template: string): Template {
  const segments = template.split('/')
  const pattern = segments
    .map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/')
  return {
    template,
    pattern: new RegExp(`^${pattern}$`),
    literals: segments.filter((s) => !s.startsWith('{')).length,
  }
}

/**
 * Finds operations by method and request path (a query string is ignored): the most specific
 * matching path template wins. Returns `undefined` when no template matches, and `null` when
 * a template matches but has no operation for the method.
 */
export function createOperationFinder(document: OpenApiLike) {
  const templates = Object.keys(document.paths ?? {})
    .map(compileTemplate)
    .sort((a, b) => b.literals - a.literals)
  return (method: string, path: string): FoundOperation | null | undefined => {
    const bare = path.split(/[?#]/)[0] ?? path
    const match = templates.find((t) => t.pattern.test(bare))
    if (!match) return undefined
    const item = document.paths?.[match.template] ?? {}
    const operation = item[method.toLowerCase()]
    if (operation === null || typeof operation !== 'object') return null
    const op = operation as Record<string, unknown>
    return {
      method: method.toUpperCase(),
      template: match.template,
      ...(typeof op['operationId'] === 'string' ? { id: op['operationId'] } : {}),
      tags: Array.isArray(op['tags']) ? (op['tags'] as string[]) : [],
      operation: op,
      pointer: `#/paths/${pointerSegment(match.template)}/${method.toLowerCase()}`,
    }
  }
}
