import * as z from 'zod'
import type { OpenApiObject } from '../openapi'
import { errorBodySchema } from '../responses'

/** A response of an {@link ApiOperation}. */
export interface ApiResponse {
  readonly description: string
  /** The body: a zod schema (a registered component becomes a `$ref`); none for 204. */
  readonly body?: z.ZodType
  /** Response headers (OpenAPI header objects or `$ref`s). */
  readonly headers?: Record<string, OpenApiObject>
}

/** One operation of the HTTP API, described by the zod schemas that validate and type it. */
export interface ApiOperation {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** The OpenAPI path template, e.g. `/api/v1/projects/{id}/issues`. */
  readonly path: string
  readonly id: string
  readonly tag: string
  readonly summary: string
  readonly description?: string
  /** Security requirements; default: the user access token. */
  readonly security?: readonly OpenApiObject[]
  /** Path parameters (each a uuid unless given). */
  readonly params?: Record<string, z.ZodType | undefined>
  /**
   * Query parameters as one zod object: each property is a parameter, required unless optional,
   * described by its `.meta({ description })`.
   */
  readonly query?: z.ZodObject
  /** The request body: required unless the schema accepts `undefined` (`.optional()`). */
  readonly body?: z.ZodType
  /** Responses by status code; a string is a `$ref` to `#/components/responses/<name>`. */
  readonly responses: Record<number, ApiResponse | string>
}

const COMPONENT_PREFIX = /^tis\./
const componentRef = (id: string) => ({
  $ref: `#/components/schemas/${id.replace(COMPONENT_PREFIX, '')}`,
})

/** Replaces zod's local `#/$defs/tis.X` references by component references, dropping `$defs`. */
function toComponentRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toComponentRefs)
  if (node === null || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === '$defs' || key === '$schema' || key === '$id') continue
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) {
      out[key] = componentRef(value.slice('#/$defs/'.length)).$ref
    } else out[key] = toComponentRefs(value)
  }
  return out
}

/**
 * The JSON Schema of `schema` for a path item: a `$ref` when it is a registered component,
 * else inline, with references to registered components.
 */
export function schemaOrRef(schema: z.ZodType): OpenApiObject {
  const id = z.globalRegistry.get(schema)?.id
  if (id) return componentRef(id)
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  })
  return toComponentRefs(json) as OpenApiObject
}

const json = (schema: OpenApiObject) => ({ 'application/json': { schema } })

function parameters(operation: ApiOperation): OpenApiObject[] {
  const path = [...operation.path.matchAll(/\{([^}]+)\}/g)].map(([, name = '']) => {
    const schema = operation.params?.[name]
    return {
      name,
      in: 'path',
      required: true,
      schema: schema ? schemaOrRef(schema) : { type: 'string', format: 'uuid' },
    }
  })
  const query = Object.entries(operation.query?.shape ?? {}).map(([name, field]) => {
    const schema = field as z.ZodType
    const { description, ...rest } = schemaOrRef(schema)
    return {
      name,
      in: 'query',
      required: !schema.safeParse(undefined).success,
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    }
  })
  return [...path, ...query]
}

function response(value: ApiResponse | string): OpenApiObject {
  if (typeof value === 'string') return { $ref: `#/components/responses/${value}` }
  return {
    description: value.description,
    ...(value.headers ? { headers: value.headers } : {}),
    ...(value.body ? { content: json(schemaOrRef(value.body)) } : {}),
  }
}

/** What the server answers to a request body over its cap (`SERVICE_MAX_BODY_BYTES`). */
const BODY_TOO_LARGE: ApiResponse = {
  description:
    'The body is larger than the server accepts (`SERVICE_MAX_BODY_BYTES`); the rest is not read and the connection is closed.',
  body: errorBodySchema,
}

/** The responses of `operation`, with the 413 every operation that reads a body can answer. */
function withBodyCap(operation: ApiOperation): ApiOperation['responses'] {
  if (!operation.body || 413 in operation.responses) return operation.responses
  return { ...operation.responses, 413: BODY_TOO_LARGE }
}

/** The OpenAPI path items of `operations`, generated from their zod schemas. */
export function operationPaths(
  operations: readonly ApiOperation[],
  defaultSecurity: readonly OpenApiObject[] = [{ userToken: [] }],
): Record<string, OpenApiObject> {
  const paths: Record<string, OpenApiObject> = {}
  for (const operation of operations) {
    const item = paths[operation.path] ?? {}
    paths[operation.path] = item
    const params = parameters(operation)
    item[operation.method] = {
      operationId: operation.id,
      tags: [operation.tag],
      summary: operation.summary,
      ...(operation.description ? { description: operation.description } : {}),
      security: operation.security ?? defaultSecurity,
      ...(params.length > 0 ? { parameters: params } : {}),
      ...(operation.body
        ? {
            requestBody: {
              required: !operation.body.safeParse(undefined).success,
              content: json(schemaOrRef(operation.body)),
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(withBodyCap(operation)).map(([status, value]) => [status, response(value)]),
      ),
    }
  }
  return paths
}
