import { describe, expect, it } from 'vitest'
import { type ManagementBodySpec, readManagementBody } from './body'

// One rule for every management write's body, table-driven.
const RATE_LIMIT: ManagementBodySpec = {
  key: 'rate_limit',
  fields: ['requests', 'period_seconds', 'auth_failure_requests'],
  nullClears: true,
}
const API_KEY: ManagementBodySpec = { key: 'api_key', fields: ['name'], optional: true }
const SETTINGS: ManagementBodySpec = { key: 'source_settings', fields: ['path_prefix'], bare: true }
const PROJECT: ManagementBodySpec = { key: 'project', fields: ['name', 'integration_kind'] }

const read = (spec: ManagementBodySpec, text: string | undefined) =>
  readManagementBody({ headers: {}, ...(text === undefined ? {} : { text }) }, spec)

describe('readManagementBody', () => {
  it.each([
    [PROJECT, 'null', 'the request body must be a JSON object with a "project" object'],
    [PROJECT, '[]', 'the request body must be a JSON object with a "project" object'],
    [PROJECT, '"project"', 'the request body must be a JSON object with a "project" object'],
    [PROJECT, '42', 'the request body must be a JSON object with a "project" object'],
    [PROJECT, 'true', 'the request body must be a JSON object with a "project" object'],
    [PROJECT, '{', 'the request body is not valid JSON'],
    [PROJECT, '', 'the request body is empty; send {"project": {…}}'],
    [PROJECT, undefined, 'the request body is empty; send {"project": {…}}'],
    [PROJECT, '{}', 'the request body has no "project" object'],
    [PROJECT, '{"name":"p"}', 'the request body has no "project" object'],
    [
      PROJECT,
      '{"project":null}',
      '"project" must be an object with at least one of name, integration_kind',
    ],
    [
      PROJECT,
      '{"project":{}}',
      '"project" must be an object with at least one of name, integration_kind',
    ],
    [
      PROJECT,
      '{"project":[1]}',
      '"project" must be an object with at least one of name, integration_kind',
    ],
    [RATE_LIMIT, 'null', 'the request body must be a JSON object with a "rate_limit" object'],
    [RATE_LIMIT, '{}', 'the request body has no "rate_limit" object'],
    [RATE_LIMIT, '', 'the request body is empty; send {"rate_limit": {…}}'],
    [
      RATE_LIMIT,
      '{"rate_limit":{}}',
      '"rate_limit" must be an object with at least one of requests, period_seconds, auth_failure_requests',
    ],
    [
      RATE_LIMIT,
      '{"rate_limit":"x"}',
      '"rate_limit" must be an object with at least one of requests, period_seconds, auth_failure_requests',
    ],
    [API_KEY, 'null', 'the request body must be a JSON object with a "api_key" object'],
    [API_KEY, '{}', 'the request body has no "api_key" object'],
    [API_KEY, '{"api_key":null}', '"api_key" must be an object with at least one of name'],
    [SETTINGS, '{}', 'the request body is an empty object'],
    [
      SETTINGS,
      '{"source_settings":{}}',
      '"source_settings" must be an object with at least one of path_prefix',
    ],
  ])('%j: %s → 400', (spec, text, why) => {
    const r = read(spec, text)
    expect(r).toEqual({
      ok: false,
      response: {
        status: 400,
        headers: {},
        body: { error: `param is missing or the value is empty: ${spec.key} (${why})` },
      },
    })
  })

  it.each([
    [
      RATE_LIMIT,
      '{"rate_limit":{"burst":1}}',
      [
        'burst is not a permitted property',
        'rate_limit must include at least one of requests, period_seconds, auth_failure_requests',
      ],
    ],
    [
      SETTINGS,
      '{"colour":"red"}',
      [
        'colour is not a permitted property',
        'source_settings must include at least one of path_prefix',
      ],
    ],
    [
      PROJECT,
      '{"project":{"name":"p"},"x":1}',
      ['x is not a permitted root key (only project is accepted)'],
    ],
    [
      PROJECT,
      '{"project":{"name":"p"},"PROJECT":{}}',
      ['send either project or PROJECT as the root key, not both'],
    ],
  ])('%j: %s → 422 %j', (spec, text, errors) => {
    expect(read(spec, text)).toEqual({
      ok: false,
      response: { status: 422, headers: {}, body: { errors } },
    })
  })

  it.each([
    [RATE_LIMIT, '{"rate_limit":null}', null],
    [RATE_LIMIT, '{"RATE_LIMIT":null}', null],
    [RATE_LIMIT, '{"rate_limit":{"requests":null}}', { requests: null }],
    [RATE_LIMIT, '{"RATE_LIMIT":{"periodSeconds":5}}', { periodSeconds: 5 }],
    [API_KEY, '', {}],
    [API_KEY, undefined, {}],
    [API_KEY, '{"api_key":{}}', {}],
    [SETTINGS, '{"path_prefix":"/app"}', { path_prefix: '/app' }],
    [SETTINGS, '{"source_settings":{"path_prefix":null}}', { path_prefix: null }],
    [PROJECT, '{"project":{"name":"p","extra":1}}', { name: 'p', extra: 1 }],
  ])('%j: %s is read as %j', (spec, text, value) => {
    expect(read(spec, text)).toEqual({ ok: true, value })
  })

  it('reads a parsed body when the host passes no text', () => {
    expect(readManagementBody({ headers: {}, body: null }, PROJECT)).toMatchObject({
      ok: false,
      response: { status: 400 },
    })
    expect(readManagementBody({ headers: {}, body: { project: { name: 'p' } } }, PROJECT)).toEqual({
      ok: true,
      value: { name: 'p' },
    })
  })
})
