import { describe, expect, it } from 'vitest'
import { describedOperations, engineOpenApiDocument, openApiPath } from './openapi'
import { HTTP_OPERATIONS } from './operations'

type Operation = { operationId?: string; responses?: Record<string, unknown> }
const operationsOf = (paths: Record<string, Record<string, unknown>>) =>
  Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  )

describe('the OpenAPI document comes from the operation table', () => {
  const document = engineOpenApiDocument()
  const paths = document.paths as Record<string, Record<string, Operation>>

  it('documents every operation of the table at its method and path, under its operationId, with its answers', () => {
    const problems = HTTP_OPERATIONS.flatMap((op) => {
      const described = paths[openApiPath(op.path)]?.[op.method.toLowerCase()]
      if (!described) return [`${op.method} ${op.path}: not described`]
      if (described.operationId !== op.id) {
        return [`${op.method} ${op.path}: operationId ${described.operationId}, table ${op.id}`]
      }
      // Every answer is documented (one operation answers only 404, by design: no organizations).
      return Object.keys(described.responses ?? {}).length > 0
        ? []
        : [`${op.method} ${op.path}: no documented answer`]
    })
    expect(problems).toEqual([])
  })

  it('lists no operation the table does not have (only the host operations it is given)', () => {
    const table = new Set(HTTP_OPERATIONS.map((op) => `${op.method} ${openApiPath(op.path)}`))
    expect(operationsOf(paths).filter(({ key }) => !table.has(key))).toEqual([])
    const described = operationsOf(describedOperations().paths as never).map(({ key }) => key)
    // What is described but not the engine's: the server's analytics health.
    expect(described.filter((key) => !table.has(key))).toEqual(['GET /health/analytics_store'])
    const withHost = engineOpenApiDocument({
      hostOperations: [{ method: 'GET', path: '/health/analytics_store' }],
    })
    expect(operationsOf(withHost.paths as never).map(({ key }) => key)).toEqual(described)
  })

  it('has one operation per method and path, and unique operationIds', () => {
    const keys = HTTP_OPERATIONS.map((op) => `${op.method} ${op.path}`)
    expect(new Set(keys).size).toBe(keys.length)
    const ids = HTTP_OPERATIONS.map((op) => op.id)
    expect(new Set(ids).size).toBe(ids.length)
  })
})
