import { parseEventEnvelope } from '@tis/schema'
import { describe, expect, it } from 'vitest'
import { firstLine, issueGrouping } from './grouping'

const event = (fields: object) => {
  const r = parseEventEnvelope({ event: { event_type: 'error', ...fields } })
  if (!r.ok) throw new Error(JSON.stringify(r))
  return r.value
}

describe('issue grouping', () => {
  it.each([
    ['first line of a multi-line message', 'boom\n  at x', 'boom'],
    ['skips blank leading lines', '\n\n  boom  \nmore', 'boom'],
    ['windows line ends', 'boom\r\nat x', 'boom'],
  ])('%s', (_rule, message, line) => {
    expect(firstLine(message)).toBe(line)
  })

  it('groups by fingerprint when given, whatever the message', () => {
    const a = issueGrouping(event({ message: 'one', fingerprint: 'fp' }))
    const b = issueGrouping(event({ message: 'two', fingerprint: 'fp' }))
    expect(a.hash).toBe(b.hash)
    expect(a.title).toBe('one')
  })

  it('groups by the first line of the message without a fingerprint', () => {
    const a = issueGrouping(event({ message: 'TypeError: x\n at a.ts:1' }))
    const b = issueGrouping(event({ message: 'TypeError: x\n at b.ts:9' }))
    const c = issueGrouping(event({ message: 'TypeError: y' }))
    expect(a.hash).toBe(b.hash)
    expect(a.hash).not.toBe(c.hash)
  })

  it('a fingerprint never collides with a message of the same text', () => {
    expect(issueGrouping(event({ message: 'x', fingerprint: 'boom' })).hash).not.toBe(
      issueGrouping(event({ message: 'boom' })).hash,
    )
  })

  it('defaults the level to error and keeps a given one', () => {
    expect(issueGrouping(event({ message: 'x' })).level).toBe('error')
    expect(issueGrouping(event({ message: 'x', level: 'fatal' })).level).toBe('fatal')
  })

  it('bounds the title to 255 characters', () => {
    expect(issueGrouping(event({ message: 'y'.repeat(5000) })).title).toHaveLength(255)
  })
})
