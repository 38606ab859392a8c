import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { createOpenApiDocument } from '../openapi'
import { READ_COMPONENTS } from './reads-components'

// The read answers' schemas are registered as the OpenAPI components their names say, and the
// document states that an answer has no field its schema does not declare.

describe('READ_COMPONENTS', () => {
  const doc = createOpenApiDocument({ extensions: [{ schemas: READ_COMPONENTS }] })

  it.each(Object.entries(READ_COMPONENTS))('registers %s under its own name', (name, schema) => {
    expect(z.globalRegistry.get(schema)?.id).toBe(`tis.${name}`)
    expect(doc.components.schemas[name]).toMatchObject({ type: 'object' })
  })

  it.each(
    Object.keys(READ_COMPONENTS).filter(
      (n) => !['IssueUpdate', 'IssueCommentCreate', 'IssueBulkUpdate', 'IssueMerge'].includes(n),
    ),
  )('forbids undeclared fields of %s', (name) => {
    expect(doc.components.schemas[name]?.['additionalProperties']).toBe(false)
  })

  it('keeps the descriptions and refers to other components', () => {
    expect(doc.components.schemas['Monitor']).toMatchObject({
      description: expect.stringMatching(/^One \(slug, environment\)/),
      properties: {
        health: { description: 'The last ok/error check-in; null until the first of them.' },
      },
    })
    expect(doc.components.schemas['EventDetail']).toMatchObject({
      properties: {
        event: { $ref: '#/components/schemas/StoredEvent' },
        frames: { items: { $ref: '#/components/schemas/Frame' } },
        source_commit: { $ref: '#/components/schemas/SourceCommit' },
      },
    })
  })
})
