import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import {
  createOperationFinder,
  type FoundOperation,
  type OpenApiLike,
  pointerSegment,
} from './operations'

// ajv-formats is CommonJS: its default export arrives wrapped under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule

/** One HTTP exchange as the response check sees it. */
export interface ResponseExchange {
  readonly method: string
  /** The request path, query string allowed. */
  readonly path: string
  readonly status: number
  /** The raw body text (`''` when empty). */
  readonly text: string
}

/** Why an answer does not match the document. */
export interface ResponseMismatch {
  /** `GET /api/v1/projects/{id}/issues (listIssues)`. */
  readonly operation: string
  readonly status: number
  /** Where in the document the rule that failed lives (a JSON pointer), when one did. */
  readonly schemaPath?: string
  /** What is wrong, without the operation and status. */
  readonly problem: string
}

/** Options of {@link createResponseValidator}. */
export interface ResponseValidatorOptions {
  /**
   * Check only operations carrying one of these tags; others pass unchecked.
   * @default every operation
   */
  readonly tags?: readonly string[]
  /**
   * Request paths that must be documented: a 2xx answer to one of them that matches no
   * operation is a mismatch.
   * @default none: requests that match no operation are not checked
   */
  readonly documented?: RegExp
}

/** Checks one exchange: `undefined` when it matches the document (or is out of scope). */
export type ResponseValidator = (exchange: ResponseExchange) => ResponseMismatch | undefined

const DOC_ID = 'https://tis.invalid/openapi.json'

/** Follows `$ref`s inside the document; returns the object and its JSON pointer. */
function deref(document: OpenApiLike, value: unknown, pointer: string) {
  let node = value
  let at = pointer
  for (let hops = 0; hops < 16; hops++) {
    const ref = (node as { $ref?: unknown } | null)?.$ref
    if (typeof ref !== 'string' || !ref.startsWith('#/')) break
    at = ref
    node = ref
      .slice(2)
      .split('/')
      .map((s) => decodeURIComponent(s).replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((n, key) => (n as Record<string, unknown> | undefined)?.[key], document)
  }
  return { node: node as Record<string, unknown> | undefined, pointer: at }
}

const describe = (found: FoundOperation) =>
  `${found.method} ${found.template}${found.id ? ` (${found.id})` : ''}`

function declaredResponse(found: FoundOperation, status: number) {
  const responses = (found.operation['responses'] ?? {}) as Record<string, unknown>
  for (const key of [String(status), `${Math.floor(status / 100)}XX`, 'default']) {
    if (key in responses) return { key, value: responses[key] }
  }
  return { key: undefined, value: undefined, declared: Object.keys(responses) }
}

function errorText(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'the body' : `the body at ${error.instancePath}`
  const extra = error.params as { additionalProperty?: string; unevaluatedProperty?: string }
  const name = extra.additionalProperty ?? extra.unevaluatedProperty
  // The offending value, when it is a scalar (a short one tells more than a schema path).
  const value =
    error.data === null || typeof error.data !== 'object'
      ? `, got ${JSON.stringify(error.data)?.slice(0, 60)}`
      : ''
  return `${where} ${error.message ?? 'is invalid'}${name ? ` ("${name}")` : value}`
}

/**
 * A validator of answers against an OpenAPI 3.1 document: the operation is found by method and
 * path template, the status must be declared for it, and a JSON body must validate (JSON
 * Schema 2020-12, formats included) against the schema declared for that status, `$ref`s
 * resolved through the document's components. A status declared without content must come with
 * an empty body; content declared only in other media types is not checked. Requests that
 * match no operation are not checked, except 2xx answers on `documented` paths.
 */
export function createResponseValidator(
  document: OpenApiLike,
  options: ResponseValidatorOptions = {},
): ResponseValidator {
  const find = createOperationFinder(document)
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false, logger: false })
  addFormats(ajv)
  ajv.addSchema(document as object, DOC_ID, undefined, false)
  const compiled = new Map<string, ValidateFunction>()
  const compile = (pointer: string) => {
    let validate = compiled.get(pointer)
    if (!validate) {
      const fragment = pointer.slice(1).split('/').map(encodeURIComponent).join('/')
      validate = ajv.compile({ $ref: `${DOC_ID}#${fragment}` })
      compiled.set(pointer, validate)
    }
    return validate
  }
  return ({ method, path, status, text }) => {
    const found = find(method, path)
    if (!found) {
      const bare = path.split(/[?#]/)[0] ?? path
      if (status < 200 || status > 299 || !options.documented?.test(bare)) return undefined
      return {
        operation: `${method.toUpperCase()} ${bare}`,
        status,
        schemaPath: '#/paths',
        problem: 'answered, but the document has no such operation',
      }
    }
    if (options.tags && !found.tags.some((t) => options.tags?.includes(t))) return undefined
    const operation = describe(found)
    const declared = declaredResponse(found, status)
    if (declared.key === undefined) {
      return {
        operation,
        status,
        schemaPath: `${found.pointer}/responses`,
        problem: `status ${status} is not declared (declared: ${declared.declared?.join(', ')})`,
      }
    }
    const responsePointer = `${found.pointer}/responses/${pointerSegment(declared.key)}`
    const response = deref(document, declared.value, responsePointer)
    const content = response.node?.['content'] as Record<string, { schema?: unknown }> | undefined
    if (!content) {
      if (text === '') return undefined
      return {
        operation,
        status,
        schemaPath: response.pointer,
        problem: 'the answer has a body but no content is declared for this status',
      }
    }
    const mediaType = Object.keys(content).find((type) => /^application\/(.+\+)?json$/.test(type))
    if (mediaType === undefined) return undefined
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return {
        operation,
        status,
        schemaPath: `${response.pointer}/content/${pointerSegment(mediaType)}`,
        problem: text === '' ? 'the body is empty, JSON is declared' : 'the body is not JSON',
      }
    }
    if (content[mediaType]?.schema === undefined) return undefined
    const schemaPointer = `${response.pointer}/content/${pointerSegment(mediaType)}/schema`
    const validate = compile(schemaPointer)
    if (validate(body)) return undefined
    const errors = validate.errors ?? []
    const shown = errors.slice(0, 3).map(errorText).join('; ')
    return {
      operation,
      status,
      schemaPath: errors[0] ? schemaPathOf(errors[0], schemaPointer) : schemaPointer,
      problem: `${shown || 'the body does not match'}${errors.length > 3 ? ` (and ${errors.length - 3} more)` : ''}`,
    }
  }
}

/**
 * The failing keyword's location in the document. ajv gives it relative to the compiled target
 * for the response schema's own keywords, and from the document's root inside a `$ref`.
 */
function schemaPathOf(error: ErrorObject, schemaPointer: string): string {
  const path = error.schemaPath
  if (path.startsWith(`${DOC_ID}#`)) return path.slice(DOC_ID.length)
  if (/^#\/(components|paths)\//.test(path)) return path
  if (path.startsWith('#/')) return `${schemaPointer}${path.slice(1)}`
  return path
}

/** The message of a {@link ResponseMismatch}: operation, status, schema path and problem. */
export function mismatchMessage(m: ResponseMismatch): string {
  return `${m.operation} answered ${m.status}: ${m.problem}${m.schemaPath ? ` [schema ${m.schemaPath}]` : ''}`
}
