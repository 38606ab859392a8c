import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { createOpenApiDocument, type OpenApiObject } from '../openapi'
import { ACCOUNT_OPENAPI } from './account-openapi'
import { BATCH_OPENAPI } from './batch-openapi'
import { MANAGEMENT_OPENAPI } from './management-openapi'
import { SOURCE_OPENAPI } from './source-openapi'

const doc = createOpenApiDocument({
  extensions: [BATCH_OPENAPI, MANAGEMENT_OPENAPI, SOURCE_OPENAPI, ACCOUNT_OPENAPI],
})
// biome-ignore lint/suspicious/noExplicitAny: the document is plain JSON, read by path
const op = (path: string, method: string): any => doc.paths[path]?.[method]
const json = (response: OpenApiObject) =>
  (response['content'] as Record<string, { schema: OpenApiObject }>)['application/json']?.schema

describe('the generated management, source-settings, account and batch paths', () => {
  it('validate as OpenAPI 3.1', async () => {
    const result = await new Validator().validate(
      structuredClone(doc) as unknown as Record<string, unknown>,
    )
    expect(result.errors).toBeUndefined()
  })

  it('keep the operation ids, tags and credentials', () => {
    expect(op('/api/v1/projects/{id}/rate_limits', 'put')).toMatchObject({
      operationId: 'setRateLimits',
      tags: ['management'],
      security: [{ userToken: [] }],
    })
    expect(op('/health/ready', 'get')).toMatchObject({ tags: ['health'], security: [] })
    expect(op('/api/v1/users/me/token', 'post').tags).toEqual(['account'])
    expect(op('/api/v1/projects/{id}/mobile_tokens/{token_id}', 'delete').parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
      expect.objectContaining({ name: 'token_id', in: 'path', required: true }),
    ])
  })

  it('keep the error examples and the optional body of createApiKey', () => {
    const responses = op('/api/v1/projects', 'post').responses
    expect(json(responses['400'])).toEqual({
      $ref: '#/components/schemas/Error',
      example: { error: 'param is missing or the value is empty: project' },
    })
    expect(json(responses['422'])).toEqual({ $ref: '#/components/schemas/ValidationErrors' })
    expect(op('/api/v1/projects/{id}/api_keys', 'post').requestBody.required).toBe(false)
    expect(op('/api/v1/projects', 'post').requestBody).toMatchObject({
      required: true,
      content: {
        'application/json': {
          schema: {
            properties: {
              project: { $ref: '#/components/schemas/ProjectRequest' },
              PROJECT: { $ref: '#/components/schemas/ProjectRequest' },
            },
          },
        },
      },
    })
  })

  it("keep the batch endpoint's NDJSON body, its header and its answers", () => {
    const batch = op('/api/v1/ingest_events/batch', 'post')
    expect(Object.keys(batch.requestBody.content)).toEqual(['application/x-ndjson'])
    expect(batch.requestBody.content['application/x-ndjson'].example).toContain('"event_id"')
    expect(batch.parameters).toEqual([
      expect.objectContaining({ name: 'X-Logister-Batch-Id', in: 'header', required: false }),
    ])
    expect(json(batch.responses['202'])).toEqual({ $ref: '#/components/schemas/BatchAccepted' })
    expect(json(batch.responses['422'])).toEqual({ $ref: '#/components/schemas/BatchRejected' })
    expect(batch.responses['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' })
  })

  it('describe every answer object as closed (no undeclared field)', () => {
    for (const name of ['Project', 'ApiKey', 'Member', 'MobileToken', 'RateLimits', 'Session']) {
      expect(doc.components.schemas[name]?.['additionalProperties'], name).toBe(false)
    }
    const answer = json(op('/api/v1/projects/{id}/members', 'get').responses['200'])
    expect(answer).toMatchObject({ required: ['members'], additionalProperties: false })
  })

  it('let a JSON Schema validator agree with zod on a real-shaped answer', () => {
    const ajv = new Ajv2020({ strict: false })
    addFormats.default(ajv)
    ajv.addSchema({ ...doc, $id: 'tis' } as object)
    const project = {
      id: '0190c6a0-0000-7000-8000-000000000001',
      name: 'shop',
      integration_kind: 'node',
      status: 'active',
      owner_id: '0190c6a0-0000-7000-8000-000000000002',
      created_at: '2026-01-01T00:00:00.000Z',
      archived_at: null,
      number: 7,
      dsn: 'https://0123456789abcdef0123456789abcdef@tis.example.com/7',
    }
    const validates = (value: unknown) =>
      ajv.validate({ $ref: 'tis#/components/schemas/Project' }, value)
    expect(validates(project), JSON.stringify(ajv.errors)).toBe(true)
    expect(validates({ ...project, extra: 1 })).toBe(false)
    expect(validates({ ...project, status: 'deleted' })).toBe(false)
  })
})
