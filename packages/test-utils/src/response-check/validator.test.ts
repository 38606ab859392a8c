import { describe, expect, it } from 'vitest'
import { createResponseCheck, ResponseMismatchError, responseCheckMode } from './mode'
import { createResponseValidator } from './validator'

// A small document in the shape the server's has: a component with a strict object, a shared
// error response by `$ref`, a 204 without content.
const document = {
  openapi: '3.1.0',
  paths: {
    '/api/v1/projects/{id}/issues': {
      get: {
        operationId: 'listIssues',
        tags: ['reads'],
        responses: {
          200: {
            description: 'ok',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['issues'],
                  additionalProperties: false,
                  properties: {
                    issues: { type: 'array', items: { $ref: '#/components/schemas/Issue' } },
                  },
                },
              },
            },
          },
          401: { $ref: '#/components/responses/Unauthorized' },
        },
      },
    },
    '/api/v1/projects/{id}/issues/latest': {
      get: {
        operationId: 'latestIssue',
        tags: ['reads'],
        responses: { 204: { description: 'none' } },
      },
    },
    '/api/v1/ingest_events': {
      post: {
        operationId: 'ingest',
        tags: ['ingest'],
        responses: { 201: { description: 'stored' } },
      },
    },
  },
  components: {
    schemas: {
      Issue: {
        type: 'object',
        required: ['id', 'last_seen_at'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', format: 'uuid' },
          last_seen_at: { type: 'string', format: 'date-time' },
        },
      },
    },
    responses: {
      Unauthorized: {
        description: 'no token',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['error'],
              properties: { error: { type: 'string' } },
            },
          },
        },
      },
    },
  },
}

const ID = '0195f3c4-1111-7000-8000-000000000001'
const issue = { id: ID, last_seen_at: '2026-11-26T10:00:00Z' }
const validate = createResponseValidator(document)
const get = (path: string, status: number, body: unknown) =>
  validate({ method: 'GET', path, status, text: body === undefined ? '' : JSON.stringify(body) })

describe('the response validator', () => {
  it('passes an answer that matches its operation, with $refs resolved and a query string', () => {
    expect(get(`/api/v1/projects/${ID}/issues?limit=5`, 200, { issues: [issue] })).toBeUndefined()
    expect(get(`/api/v1/projects/${ID}/issues`, 401, { error: 'Unauthorized' })).toBeUndefined()
    expect(get(`/api/v1/projects/${ID}/issues/latest`, 204, undefined)).toBeUndefined()
  })

  it('fails an answer with a field the schema does not declare, naming operation, status and schema path', () => {
    const mismatch = get(`/api/v1/projects/${ID}/issues`, 200, { issues: [{ ...issue, extra: 1 }] })
    expect(mismatch).toEqual({
      operation: 'GET /api/v1/projects/{id}/issues (listIssues)',
      status: 200,
      schemaPath: '#/components/schemas/Issue/additionalProperties',
      problem: 'the body at /issues/0 must NOT have additional properties ("extra")',
    })
  })

  it('fails a wrong type and a bad format inside a referenced schema', () => {
    expect(
      get(`/api/v1/projects/${ID}/issues`, 200, { issues: [{ ...issue, id: 'x' }] }),
    ).toMatchObject({
      schemaPath: '#/components/schemas/Issue/properties/id/format',
      problem: 'the body at /issues/0/id must match format "uuid", got "x"',
    })
    expect(
      get(`/api/v1/projects/${ID}/issues`, 200, { issues: [{ ...issue, last_seen_at: 5 }] }),
    ).toMatchObject({
      schemaPath: '#/components/schemas/Issue/properties/last_seen_at/type',
      problem: 'the body at /issues/0/last_seen_at must be string, got 5',
    })
    expect(get(`/api/v1/projects/${ID}/issues`, 200, {})).toMatchObject({
      problem: `the body must have required property 'issues'`,
    })
  })

  it('fails a status the operation does not declare', () => {
    expect(get(`/api/v1/projects/${ID}/issues`, 429, { error: 'slow down' })).toMatchObject({
      status: 429,
      problem: 'status 429 is not declared (declared: 200, 401)',
    })
  })

  it('fails a body where no content is declared, and an empty or non-JSON body where JSON is', () => {
    expect(get(`/api/v1/projects/${ID}/issues/latest`, 204, { x: 1 })?.problem).toMatch(
      /no content is declared/,
    )
    expect(get(`/api/v1/projects/${ID}/issues`, 200, undefined)?.problem).toBe(
      'the body is empty, JSON is declared',
    )
    expect(
      validate({
        method: 'GET',
        path: `/api/v1/projects/${ID}/issues`,
        status: 200,
        text: '<html>',
      })?.problem,
    ).toBe('the body is not JSON')
  })

  it('leaves requests alone that match no operation, or an operation outside the chosen tags', () => {
    expect(get('/nowhere', 200, { anything: true })).toBeUndefined()
    expect(
      validate({ method: 'DELETE', path: `/api/v1/projects/${ID}/issues`, status: 405, text: 'x' }),
    ).toBeUndefined()
    const reads = createResponseValidator(document, { tags: ['reads'] })
    expect(
      reads({ method: 'POST', path: '/api/v1/ingest_events', status: 500, text: '' }),
    ).toBeUndefined()
    expect(
      validate({ method: 'POST', path: '/api/v1/ingest_events', status: 500, text: '' }),
    ).toBeDefined()
  })

  it('fails a successful answer on a path that must be documented but has no operation', () => {
    const strict = createResponseValidator(document, { documented: /^\/api\/v1\// })
    expect(
      strict({ method: 'GET', path: '/api/v1/projects?limit=1', status: 200, text: '{}' }),
    ).toEqual({
      operation: 'GET /api/v1/projects',
      status: 200,
      schemaPath: '#/paths',
      problem: 'answered, but the document has no such operation',
    })
    expect(
      strict({ method: 'GET', path: '/api/v1/projects', status: 404, text: '{}' }),
    ).toBeUndefined()
    expect(strict({ method: 'GET', path: '/health', status: 200, text: '{}' })).toBeUndefined()
  })
})

describe('TIS_RESPONSE_CHECK', () => {
  const bad = {
    method: 'GET',
    path: `/api/v1/projects/${ID}/issues`,
    status: 200,
    text: '{"issues":[],"more":1}',
  }

  it('is strict by default and refuses other values', () => {
    expect(responseCheckMode({})).toBe('strict')
    expect(responseCheckMode({ TIS_RESPONSE_CHECK: 'report' })).toBe('report')
    expect(() => responseCheckMode({ TIS_RESPONSE_CHECK: 'loud' })).toThrow(
      /one of off, report, strict/,
    )
  })

  it('strict throws a ResponseMismatchError naming operation, status and schema path', () => {
    const check = createResponseCheck(validate, { mode: 'strict' })
    let thrown: unknown
    try {
      check(bad)
    } catch (error) {
      thrown = error
    }
    expect(ResponseMismatchError.is(thrown)).toBe(true)
    expect((thrown as Error).message).toBe(
      'GET /api/v1/projects/{id}/issues (listIssues) answered 200: the body must NOT have additional properties ("more") ' +
        '[schema #/paths/~1api~1v1~1projects~1{id}~1issues/get/responses/200/content/application~1json/schema/additionalProperties]',
    )
  })

  it('report logs each distinct mismatch once; off checks nothing', () => {
    const lines: string[] = []
    const report = createResponseCheck(validate, { mode: 'report', report: (l) => lines.push(l) })
    report(bad)
    report(bad)
    report({ ...bad, status: 418 })
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(
      /^\[response-check\] GET \/api\/v1\/projects\/\{id\}\/issues \(listIssues\) answered 200/,
    )
    expect(() =>
      createResponseCheck(() => ({ operation: 'x', status: 1, problem: 'y' }), { mode: 'off' })(
        bad,
      ),
    ).not.toThrow()
  })
})
