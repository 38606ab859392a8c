import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { CONTRACT_VERSION, createOpenApiDocument, type OpenApiObject } from './openapi'
import { parseEnvelope } from './parse'

const doc = createOpenApiDocument({ serverUrl: 'https://tis.example.com' })

function collectRefs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) collectRefs(v, out)
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v)
      else collectRefs(v, out)
    }
  }
  return out
}

function resolve(ref: string): unknown {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], doc)
}

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    const result = await new Validator().validate(
      structuredClone(doc) as unknown as Record<string, unknown>,
    )
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
  })

  it('is OpenAPI 3.1.0, contract version 2.8', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.version).toBe('2.8')
    expect(CONTRACT_VERSION).toBe('2.8')
  })

  it('every $ref resolves', () => {
    const refs = collectRefs(doc)
    expect(refs.length).toBeGreaterThan(20)
    for (const ref of refs) expect(resolve(ref), ref).toBeDefined()
  })

  it.each([
    ['/api/v1/ingest_events', 'post', 'EventEnvelope'],
    ['/api/v1/check_ins', 'post', 'CheckInEnvelope'],
    ['/api/v1/deployments', 'post', 'DeploymentEnvelope'],
    ['/api/v1/mobile_ingest_tokens', 'post', 'MobileIngestTokenRequestEnvelope'],
  ])(
    '%s takes the %s body, both auth headers and every documented status',
    (path, method, envelope) => {
      const op = (doc.paths[path] as Record<string, OpenApiObject>)[method]!
      expect(op['security']).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }])
      expect(JSON.stringify(op['requestBody'])).toContain(`#/components/schemas/${envelope}`)
      const responses = op['responses'] as Record<string, OpenApiObject>
      // Events and check-ins are idempotent by event_id: a repeat answers 200.
      const idempotent = path === '/api/v1/ingest_events' || path === '/api/v1/check_ins'
      expect(Object.keys(responses).sort()).toEqual([
        ...(idempotent ? ['200'] : []),
        ...['201', '400', '401', '403', '422', '429'],
      ])
      expect(Object.keys(responses['201']!['headers'] as object).sort()).toEqual([
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
      ])
    },
  )

  it('the health endpoint answers 200 or 503 without a credential', () => {
    const op = (doc.paths['/health/analytics_store'] as Record<string, OpenApiObject>)['get']!
    expect(op['security']).toEqual([])
    expect(Object.keys(op['responses'] as object).sort()).toEqual(['200', '503'])
  })

  it('declares both credential headers', () => {
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      apiKeyHeader: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }),
      // Sentry's protocol: the DSN key as Sentry's SDKs send it.
      sentryAuth: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Sentry-Auth' }),
      sentryKey: expect.objectContaining({ type: 'apiKey', in: 'query', name: 'sentry_key' }),
    })
  })

  it('the 429 response carries Retry-After and the rate-limit headers', () => {
    const tooMany = doc.components.responses['TooManyRequests'] as { headers: object }
    expect(Object.keys(tooMany.headers).sort()).toEqual([
      'Retry-After',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
    ])
  })

  it.each([
    ['AcceptedEvent', ['id', 'legacy_id', 'status']],
    ['AcceptedSpan', ['id', 'legacy_id', 'status', 'type']],
    ['AcceptedCheckIn', ['id', 'status']],
    ['AcceptedDeployment', ['id', 'legacy_id', 'status']],
    [
      'MobileIngestTokenResponse',
      ['token', 'expires_at', 'platform', 'service', 'environment', 'allowed_event_types'],
    ],
    ['Error', ['error']],
    ['ValidationErrors', ['errors']],
    ['RateLimitError', ['error', 'limit', 'window_seconds', 'retry_after']],
  ])('response record %s requires %j', (name, required) => {
    expect(doc.components.schemas[name]!['required']).toEqual(required)
  })

  it('lets other packages add paths and schemas', () => {
    const extended = createOpenApiDocument({
      extensions: [
        {
          paths: { '/api/v1/projects': { get: { responses: { '200': { description: 'ok' } } } } },
          schemas: { Project: z.object({ id: z.string() }) },
          tags: [{ name: 'projects' }],
          securitySchemes: { userToken: { type: 'http', scheme: 'bearer' } },
        },
      ],
    })
    expect(extended.paths['/api/v1/projects']).toBeDefined()
    expect(extended.paths['/api/v1/ingest_events']).toBeDefined()
    expect(extended.components.schemas['Project']).toMatchObject({ type: 'object' })
    expect(extended.tags).toContainEqual({ name: 'projects' })
    expect(extended.components.securitySchemes['userToken']).toEqual({
      type: 'http',
      scheme: 'bearer',
    })
  })
})

describe('the JSON Schemas agree with the normaliser', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  ajv.addSchema({ ...doc, $id: 'tis' } as object)
  const validates = (name: string, value: unknown) =>
    ajv.validate({ $ref: `tis#/components/schemas/${name}` }, value)

  it.each([
    [
      'Event',
      'event',
      { event_type: 'error', message: 'boom', context: { tags: { a: 'b' } } },
      true,
    ],
    ['Event', 'event', { event_type: 'span', name: 'db', kind: 'db', duration_ms: 0 }, true],
    ['Event', 'event', { event_type: 'log' }, false],
    ['Event', 'event', { event_type: 'span' }, false],
    ['Event', 'event', { event_type: 'nope', message: 'x' }, false],
    ['Event', 'event', { event_type: 'log', message: 'x', duration_ms: -1 }, false],
    ['Event', 'event', { event_type: 'log', message: 'x', expected_interval_seconds: 0 }, false],
    ['Event', 'event', { event_type: 'log', message: 'x', commit_sha: 'xyz' }, false],
    ['Event', 'event', { event_type: 'log', message: 'x', occurred_at: 'soon' }, false],
    // Long strings are cut, unknown kinds stored as internal, user context kept.
    ['Event', 'event', { event_type: 'log', message: 'x'.repeat(70_000) }, true],
    ['Event', 'event', { event_type: 'span', name: 's', kind: 'graphql' }, true],
    ['Event', 'event', { event_type: 'span', name: 's', kind: 7 }, false],
    ['Event', 'event', { event_type: 'log', message: 'x', context: { started_at: 'x' } }, true],
    ['Event', 'event', { event_type: 'log', message: 'x', context: { commit_sha: 'HEAD' } }, false],
    ['CheckIn', 'check_in', { slug: 'x'.repeat(2_000) }, true],
    ['Event', 'event', { event_type: 'log', message: 'x', duration_ms: 31_536_000_001 }, false],
    ['Event', 'event', { event_type: 'log', message: 'x', status: 1000 }, false],
    ['Event', 'event', { event_type: 'log', message: 'x', context: { value: -1e21 } }, false],
    ['Event', 'event', { event_type: 'log', message: 'x', context: { value: -1e20 } }, true],
    ['CheckIn', 'check_in', { slug: 'nightly', expected_interval_seconds: 60 }, true],
    ['CheckIn', 'check_in', { slug: 'nightly', duration_ms: 1e308 }, false],
    ['CheckIn', 'check_in', { status: 'ok' }, false],
    [
      'Deployment',
      'deployment',
      {
        release: 'v1',
        repository: 'o/n',
        commit_sha: 'abcdef1',
        pull_request_url: 'https://x.test/1',
      },
      true,
    ],
    ['Deployment', 'deployment', { release: 'v1', repository: 'o/n' }, false],
    [
      'Deployment',
      'deployment',
      { release: 'v1', repository: 'o/n', commit_sha: 'abcdef1', pull_request_url: 'javascript:1' },
      false,
    ],
    [
      'Deployment',
      'deployment',
      { release: 'v1', repository: 'o/n', commit_sha: 'abcdef1', pull_request_number: 0 },
      false,
    ],
    [
      'Deployment',
      'deployment',
      { release: 'v1', repository: 'o/n', commit_sha: 'abcdef1', release_url: 'nope' },
      false,
    ],
    [
      'MobileIngestTokenRequest',
      'mobile_ingest_token',
      { platform: 'ios', service: 's', environment: 'e' },
      true,
    ],
    [
      'MobileIngestTokenRequest',
      'mobile_ingest_token',
      { platform: 'ios', service: 's', environment: 'e', extra: 1 },
      false,
    ],
    [
      'MobileIngestTokenRequest',
      'mobile_ingest_token',
      { platform: 'ios', service: 's', environment: 'e', expires_in_seconds: 3601 },
      false,
    ],
  ] as const)('%s %j → %s', (schema, key, body, valid) => {
    expect(validates(schema, body), JSON.stringify(ajv.errors)).toBe(valid)
    expect(parseEnvelope(key, { [key]: body }).ok).toBe(valid)
  })
})
