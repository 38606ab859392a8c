import { describe, expect, it } from 'vitest'
import type { ProjectRecord } from '../ports'
import { dsnBase, sentryDsn } from './json'

const PROJECT = {
  number: 42,
  sentryKey: '0123456789abcdef0123456789abcdef',
} as ProjectRecord

describe('sentryDsn', () => {
  it.each([
    ['https://tis.example.com', 'https://0123456789abcdef0123456789abcdef@tis.example.com/42'],
    ['https://tis.example.com/', 'https://0123456789abcdef0123456789abcdef@tis.example.com/42'],
    ['https://example.com/tis/', 'https://0123456789abcdef0123456789abcdef@example.com/tis/42'],
    ['http://127.0.0.1:8080', 'http://0123456789abcdef0123456789abcdef@127.0.0.1:8080/42'],
    ['not a url', null],
    [null, null],
  ])('%s → %s', (base, dsn) => {
    expect(sentryDsn(PROJECT, base)).toBe(dsn)
  })

  it('is null for a store without numbers or keys', () => {
    expect(sentryDsn({} as ProjectRecord, 'https://tis.example.com')).toBeNull()
  })
})

describe('dsnBase', () => {
  it('prefers the public URL, else the Host and X-Forwarded-Proto of the request', () => {
    const request = { headers: { host: 'tis.test:3000', 'x-forwarded-proto': 'https, http' } }
    expect(dsnBase(request, 'https://public.example.com')).toBe('https://public.example.com')
    expect(dsnBase(request, undefined)).toBe('https://tis.test:3000')
    expect(dsnBase({ headers: { host: 'tis.test' } }, undefined)).toBe('http://tis.test')
    expect(dsnBase({ headers: {} }, undefined)).toBeNull()
  })
})
