import { describe, expect, it } from 'vitest'
import { parseEnvelope } from './parse'

const valid = {
  event: { event_type: 'log', message: 'hello' },
  check_in: { slug: 'nightly' },
  deployment: { release: 'v1', repository: 'o/n', commit_sha: 'abcdef1' },
  mobile_ingest_token: { platform: 'ios', service: 'com.example', environment: 'production' },
} as const
const operations = Object.keys(valid) as Array<keyof typeof valid>

describe.each(operations)('the %s envelope', (key) => {
  const message = `param is missing or the value is empty: ${key}`

  it.each([
    ['the body is null', null],
    ['the body is an array', [{ [key]: valid[key] }]],
    ['the body is a string', 'hello'],
    ['the body is a number', 42],
    ['the body is true', true],
    ['the envelope key is absent', {}],
    ['the envelope is null', { [key]: null }],
    ['the envelope is an empty object', { [key]: {} }],
    ['the envelope is an array', { [key]: [valid[key]] }],
    ['the envelope is a string', { [key]: 'x' }],
    ['the envelope is a number', { [key]: 1 }],
    ['the envelope is false', { [key]: false }],
    ['only another root key is sent', { other: valid[key] }],
  ])('400 when %s, naming the envelope key', (_rule, body) => {
    const result = parseEnvelope(key, body)
    expect(result).toMatchObject({ ok: false, status: 400 })
    expect(result.ok === false && result.status === 400 && result.error).toMatch(
      new RegExp(`^${message}`),
    )
  })

  it('accepts the lowercase key', () => {
    expect(parseEnvelope(key, { [key]: valid[key] }).ok).toBe(true)
  })

  it('accepts the uppercase key', () => {
    expect(parseEnvelope(key, { [key.toUpperCase()]: valid[key] }).ok).toBe(true)
  })

  it('400 when only the uppercase envelope is sent and it is empty', () => {
    expect(parseEnvelope(key, { [key.toUpperCase()]: {} })).toEqual({
      ok: false,
      status: 400,
      error: message,
    })
  })

  it('422 for an extra root key beside the envelope, naming it', () => {
    expect(parseEnvelope(key, { [key]: valid[key], extra: 1 })).toEqual({
      ok: false,
      status: 422,
      errors: [`extra is not a permitted root key (only ${key} is accepted)`],
    })
  })

  it('422 when both spellings of the envelope are sent', () => {
    expect(parseEnvelope(key, { [key]: valid[key], [key.toUpperCase()]: valid[key] })).toEqual({
      ok: false,
      status: 422,
      errors: [`send either ${key} or ${key.toUpperCase()} as the root key, not both`],
    })
  })

  it('422, not a crash, for a body nested 100,000 levels deep', () => {
    let deep: unknown = 'x'
    for (let i = 0; i < 100_000; i++) deep = { a: deep }
    const result = parseEnvelope(key, { [key]: { ...valid[key], nested: deep } })
    expect(result).toEqual({
      ok: false,
      status: 422,
      errors: [`${key} is nested too deeply (maximum is 64 levels)`],
    })
  })
})
