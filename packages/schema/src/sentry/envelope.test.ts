import { describe, expect, it } from 'vitest'
import { parseSentryEnvelope } from './envelope'

const bytes = (text: string) => new TextEncoder().encode(text)
const text = (b: Uint8Array) => new TextDecoder().decode(b)

describe('parseSentryEnvelope', () => {
  it('reads items with and without a length, binary payloads included', () => {
    const event = '{"message":"hello\\nworld"}'
    const attachment = 'a\nb\0c'
    const result = parseSentryEnvelope(
      bytes(
        `{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","dsn":"https://k@h/1"}\n` +
          `{"type":"event","length":${bytes(event).length}}\n${event}\n` +
          `{"type":"attachment","length":${bytes(attachment).length},"filename":"x"}\n${attachment}\n` +
          `{"type":"session"}\n{"sid":"s","status":"ok"}\n` +
          `{"type":"client_report"}\n{"discarded_events":[]}`,
      ),
    )
    if (!result.ok) throw new Error(result.message)
    expect(result.envelope.header['event_id']).toBe('9ec79c33ec9942ab8353589fcb2e04dc')
    expect(result.envelope.items.map((i) => [i.type, text(i.payload)])).toEqual([
      ['event', event],
      ['attachment', attachment],
      ['session', '{"sid":"s","status":"ok"}'],
      ['client_report', '{"discarded_events":[]}'],
    ])
  })

  it('accepts an envelope of only a header, and a trailing newline', () => {
    const result = parseSentryEnvelope(bytes('{}\n'))
    expect(result).toEqual({ ok: true, envelope: { header: {}, items: [] } })
  })

  it('counts lengths in bytes, not characters', () => {
    const payload = '{"message":"héllo ✓"}'
    const size = bytes(payload).length
    const result = parseSentryEnvelope(bytes(`{}\n{"type":"event","length":${size}}\n${payload}`))
    expect(result.ok && text(result.envelope.items[0]!.payload)).toBe(payload)
  })

  it.each([
    ['', 'the envelope is empty'],
    ['not json\n', 'the envelope header (its first line) is not a JSON object'],
    ['[1]\n', 'the envelope header (its first line) is not a JSON object'],
    ['{}\n{"length":2}\n{}', 'item 1: its header is not a JSON object with a string "type"'],
    ['{}\n{"type":"event"', 'item 1: its header is not a JSON object with a string "type"'],
    [
      '{}\n{"type":"event","length":-1}\n',
      'item 1 (event): "length" must be a non-negative integer',
    ],
    [
      '{}\n{"type":"event","length":"2"}\n{}',
      'item 1 (event): "length" must be a non-negative integer',
    ],
    [
      '{}\n{"type":"event","length":50}\n{}',
      'item 1 (event): "length" is 50 bytes but only 2 remain',
    ],
    [
      '{}\n{"type":"event","length":1}\n{}\n',
      'item 1 (event): its 1-byte payload is not followed by a newline',
    ],
  ])('refuses %j: %s', (body, message) => {
    // Once the header line is read, the refusal keeps it (its dsn still names the key).
    const header = body.startsWith('{}') ? { header: {} } : {}
    expect(parseSentryEnvelope(bytes(body))).toEqual({ ok: false, message, ...header })
  })

  it('refuses more than 1,000 items', () => {
    const body = `{}\n${'{"type":"session"}\n{}\n'.repeat(1001)}`
    expect(parseSentryEnvelope(bytes(body))).toEqual({
      ok: false,
      message: 'the envelope has more than 1000 items',
      header: {},
    })
  })

  it('keeps the header of an envelope refused for an item', () => {
    const result = parseSentryEnvelope(
      bytes('{"dsn":"https://k@h/1"}\n{"type":"event","length":9}\n{}'),
    )
    expect(result).toMatchObject({ ok: false, header: { dsn: 'https://k@h/1' } })
  })
})
