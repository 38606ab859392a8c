import { describe, expect, it } from 'vitest'
import { createSecretBox } from './secret-box'

describe('createSecretBox', () => {
  const box = createSecretBox('a-long-random-server-secret-key-0123456789')
  const token = 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz'

  it('round-trips a value and never contains it in the sealed form', () => {
    const sealed = box.seal(token, 'project-1')
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(sealed).not.toContain(token)
    expect(box.open(sealed, 'project-1')).toBe(token)
  })

  it('uses a fresh IV for every value', () => {
    expect(box.seal(token, 'p')).not.toBe(box.seal(token, 'p'))
  })

  it('does not open with another context (project) or another key', () => {
    const sealed = box.seal(token, 'project-1')
    expect(box.open(sealed, 'project-2')).toBeNull()
    expect(
      createSecretBox('another-secret-key-0123456789abcdef').open(sealed, 'project-1'),
    ).toBeNull()
  })

  it('does not open a tampered or malformed value', () => {
    const sealed = box.seal(token, 'p')
    const parts = sealed.split('.')
    const data = Buffer.from(parts[3]!, 'base64url')
    data[0] = data[0]! ^ 1
    expect(box.open([...parts.slice(0, 3), data.toString('base64url')].join('.'), 'p')).toBeNull()
    expect(box.open('garbage', 'p')).toBeNull()
    expect(box.open('v2.a.b.c', 'p')).toBeNull()
  })
})
