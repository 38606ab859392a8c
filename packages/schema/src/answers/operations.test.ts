import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { createOpenApiDocument } from '../openapi'
import { component, pageOf, storedTimeField } from './common'
import { operationPaths, schemaOrRef } from './operations'

const widget = component(
  'TestWidget',
  z.strictObject({ id: z.uuid(), seen_at: storedTimeField }),
  'A widget.',
)

describe('operationPaths', () => {
  const paths = operationPaths([
    {
      method: 'get',
      path: '/api/v1/projects/{id}/widgets',
      id: 'listWidgets',
      tag: 'reads',
      summary: 'List widgets',
      query: z.object({
        limit: z.coerce.number().int().min(1).optional().meta({ description: 'Page size.' }),
        kind: z.string().meta({ description: 'Exact kind.' }),
      }),
      responses: {
        200: { description: 'One page.', body: pageOf('widgets', widget) },
        401: 'Unauthorized',
      },
    },
  ])
  const get = paths['/api/v1/projects/{id}/widgets']?.['get'] as Record<string, unknown>

  it('lists path and query parameters, required unless optional, with their descriptions', () => {
    expect(get['parameters']).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
      expect.objectContaining({
        name: 'limit',
        in: 'query',
        required: false,
        description: 'Page size.',
      }),
      expect.objectContaining({
        name: 'kind',
        in: 'query',
        required: true,
        description: 'Exact kind.',
      }),
    ])
  })

  it('refers to registered components and forbids undeclared fields', () => {
    type Body = { properties: { widgets: { items: unknown } }; additionalProperties: unknown }
    const responses = get['responses'] as Record<
      string,
      { content: Record<string, { schema: Body }> }
    >
    const body = responses['200']!.content['application/json']!.schema
    expect(body.properties.widgets.items).toEqual({ $ref: '#/components/schemas/TestWidget' })
    expect(body.additionalProperties).toBe(false)
    expect((get['responses'] as Record<string, unknown>)['401']).toEqual({
      $ref: '#/components/responses/Unauthorized',
    })
    expect(schemaOrRef(widget)).toEqual({ $ref: '#/components/schemas/TestWidget' })
  })

  it('emits the component itself through an extension', () => {
    const doc = createOpenApiDocument({ extensions: [{ schemas: { TestWidget: widget } }] })
    expect(doc.components.schemas['TestWidget']).toMatchObject({
      additionalProperties: false,
      required: ['id', 'seen_at'],
      description: 'A widget.',
    })
  })
})
