import { describe, expect, it } from 'vitest'
import { createScrubber } from './scrub'
import { DEFAULT_SCRUB_SETTINGS, type ScrubSettings } from './settings'

const scrub = (event: Record<string, unknown>, settings: Partial<ScrubSettings> = {}) =>
  createScrubber({ ...DEFAULT_SCRUB_SETTINGS, ...settings }).event(event)

describe('the top level of an event', () => {
  const documented = {
    event_type: 'error',
    fingerprint: 'checkout-token-expired',
    session_id: 'sess-4111111111111111',
    user_id: 'u-1',
    trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
    request_id: 'req-7f3a',
    release: 'api@1.0.0',
    environment: 'production',
    level: 'error',
    // Documented string fields other than message and name are left as sent.
    transaction_name: 'GET /cb?token=abc',
    branch: 'main',
    repository: 'acme/api',
    status: 'Bearer x',
    occurred_at: '2026-03-01T10:00:00.000Z',
  }

  it('keeps the documented fields as sent', () => {
    const result = scrub(documented)
    expect(result.value).toBe(documented)
    expect(result.report).toEqual({ filtered: 0, rules: {} })
  })

  it('does not scan identifier fields, whatever their type', () => {
    const event = { fingerprint: ['Bearer x', '4111 1111 1111 1111'], release: { token: 't' } }
    expect(scrub(event).value).toBe(event)
  })

  it('never lets extraFields name a documented field away', () => {
    const extraFields = ['fingerprint', 'session_id', 'user_id', 'trace_id', 'level', 'branch']
    expect(scrub(documented, { extraFields }).value).toBe(documented)
  })

  it('extraFields still apply to the same names deeper down (identifiers aside)', () => {
    const event = { context: { user: { level: 'gold', fingerprint: 'fp', branch: 'b' } } }
    const { value } = scrub(event, { extraFields: ['level', 'fingerprint', 'branch'] })
    expect(value.context).toEqual({
      user: { level: '[Filtered]', fingerprint: 'fp', branch: '[Filtered]' },
    })
  })

  it('scans message and name with the value rules only', () => {
    const event = {
      event_type: 'error',
      message: 'card 4111 1111 1111 1111 declined for Bearer abc.def.ghi',
      name: 'GET https://x/cb?token=abc',
    }
    const { value, report } = scrub(event)
    expect(value).toEqual({
      event_type: 'error',
      message: 'card [Filtered] declined for [Filtered]',
      name: 'GET https://x/cb?token=[Filtered]',
    })
    expect(report).toEqual({
      filtered: 3,
      rules: { credit_card: 1, bearer_token: 1, sensitive_key: 1 },
    })
  })

  it('applies every rule to undocumented top-level keys', () => {
    const { value } = scrub({ message: 'm', password: 'p', extra: { api_key: 'k', note: 'ok' } })
    expect(value).toEqual({
      message: 'm',
      password: '[Filtered]',
      extra: { api_key: '[Filtered]', note: 'ok' },
    })
  })
})

describe('the context of an event', () => {
  it('walks into documented objects instead of replacing them', () => {
    const context = {
      tags: { token: 't', region: 'eu' },
      request: { method: 'GET' },
      metadata: { secret: 's' },
      exception: { exception_class: 'E', frames: [{ vars: { password: 'p' } }] },
      session_id: 'sess-1',
      user_id: 'u-1',
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
    }
    const { value, report } = scrub({ context }, { extraFields: ['tags', 'request', 'metadata'] })
    expect(value.context).toEqual({
      ...context,
      tags: { token: '[Filtered]', region: 'eu' },
      metadata: { secret: '[Filtered]' },
      exception: { exception_class: 'E', frames: [{ vars: { password: '[Filtered]' } }] },
    })
    expect(report).toEqual({ filtered: 3, rules: { sensitive_key: 3 } })
  })

  it('filters request headers by name, keeping the harmless ones', () => {
    const headers = { Authorization: 'Bearer x', Cookie: 'sid=1', 'X-Api-Key': 'k', Accept: '*/*' }
    const { value, report } = scrub({ context: { request: { headers } } })
    expect(value.context).toEqual({
      request: {
        headers: {
          Authorization: '[Filtered]',
          Cookie: '[Filtered]',
          'X-Api-Key': '[Filtered]',
          Accept: '*/*',
        },
      },
    })
    // The header values are replaced whole: the bearer token is not counted a second time.
    expect(report).toEqual({ filtered: 3, rules: { sensitive_key: 3 } })
  })

  it('scrubs URLs and query strings', () => {
    const context = {
      request: {
        url: 'https://app:pw@api.test/cb?token=abc&page=2',
        query_string: 'token=abc&page=2',
      },
      db: { url: 'postgres://app:s3cr3t@db:5432/x' },
    }
    const { value, report } = scrub({ context })
    expect(value.context).toEqual({
      request: {
        url: 'https://app:[Filtered]@api.test/cb?token=[Filtered]&page=2',
        query_string: 'token=[Filtered]&page=2',
      },
      db: { url: 'postgres://app:[Filtered]@db:5432/x' },
    })
    expect(report).toEqual({ filtered: 4, rules: { url_password: 2, sensitive_key: 2 } })
  })

  it('reaches values in arrays and deep nesting', () => {
    const context = {
      breadcrumbs: [
        { category: 'http', data: { api_key: 'k', url: '/ok' } },
        { category: 'console', message: 'paid with 4111-1111-1111-1111' },
      ],
      extra: { jobs: [{ steps: [{ env: { DB_PASSWORD: 'p', N: 3 } }] }], list: [[{ token: 't' }]] },
      frames: [{ vars: { password: 'p', card: '4111 1111 1111 1111', n: 3 } }],
    }
    const { value, report } = scrub({ context })
    expect(value.context).toEqual({
      breadcrumbs: [
        { category: 'http', data: { api_key: '[Filtered]', url: '/ok' } },
        { category: 'console', message: 'paid with [Filtered]' },
      ],
      extra: {
        jobs: [{ steps: [{ env: { DB_PASSWORD: '[Filtered]', N: 3 } }] }],
        list: [[{ token: '[Filtered]' }]],
      },
      frames: [{ vars: { password: '[Filtered]', card: '[Filtered]', n: 3 } }],
    })
    expect(report).toEqual({ filtered: 6, rules: { sensitive_key: 4, credit_card: 2 } })
  })

  it('removes a client-sent data_scrubbing and adds no report of its own', () => {
    const event = { message: 'm', context: { data_scrubbing: { filtered: 0 }, region: 'eu' } }
    const { value, report } = scrub(event)
    expect(value).toEqual({ message: 'm', context: { region: 'eu' } })
    expect(report).toEqual({ filtered: 0, rules: {} })
  })
})

describe('sensitive values', () => {
  it('replaces any value, counted once, and keeps empty ones uncounted', () => {
    const extra = {
      password: 42,
      token: { nested: 'x' },
      secret: ['a', 'b'],
      auth: false,
      api_key: null,
      cookie: '',
      session: undefined,
      pwd: '[Filtered]',
    }
    const { value, report } = scrub({ context: { extra } })
    expect(value.context).toEqual({
      extra: {
        password: '[Filtered]',
        token: '[Filtered]',
        secret: '[Filtered]',
        auth: '[Filtered]',
        api_key: null,
        cookie: '',
        session: undefined,
        pwd: '[Filtered]',
      },
    })
    expect(report).toEqual({ filtered: 4, rules: { sensitive_key: 4 } })
  })

  it('keeps the near misses', () => {
    const context = {
      tokenizer: 'bpe',
      author: 'ann',
      secretary: 'bob',
      passwordless: true,
      order: 'order 4111111111111112 shipped',
      request_id: 'req-1',
      sessionId: 's-1',
      span: { trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', parentSpanId: 'b7ad6b7169203331' },
    }
    const event = { message: 'ok', context }
    const result = scrub(event)
    expect(result.value).toBe(event)
    expect(result.report.filtered).toBe(0)
  })

  it('does not scan identifier values at any depth', () => {
    const context = { a: { b: [{ session_id: 'Bearer abc', user_id: '4111111111111111' }] } }
    expect(scrub({ context }).report.filtered).toBe(0)
  })
})

describe('safeFields', () => {
  it('exempt a key from the key rules and the value rules, at any depth', () => {
    const context = {
      session: 'keep me',
      cart: { order_number: '4111 1111 1111 1111', Session: { token: 'nested' } },
      other: { card: '4111 1111 1111 1111' },
    }
    const { value, report } = scrub({ context }, { safeFields: ['session', 'ORDER_NUMBER'] })
    expect(value.context).toEqual({ ...context, other: { card: '[Filtered]' } })
    expect(report).toEqual({ filtered: 1, rules: { credit_card: 1 } })
  })

  it('can exempt a top-level text field from scanning', () => {
    const event = { message: 'card 4111 1111 1111 1111' }
    expect(scrub(event, { safeFields: ['message'] }).value).toBe(event)
  })
})
