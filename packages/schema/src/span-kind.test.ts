import { describe, expect, it } from 'vitest'
import { SPAN_KINDS } from './enums'
import { parseEventEnvelope } from './event'
import { storedSpanKind } from './span-kind'
import { acceptedValue, errorsOf } from './test-results'

const span = (fields: object) =>
  parseEventEnvelope({ event: { event_type: 'span', name: 's', ...fields } })

// Span kinds widen section 2.1's enum on purpose (docs/validation.md, "Span kinds").
describe('span kinds outside the list', () => {
  it.each<[string, string]>([
    ...SPAN_KINDS.map((kind): [string, string] => [kind, kind]),
    ['DB', 'db'],
    ['Server', 'server'],
    ['job', 'internal'],
    ['graphql', 'internal'],
    ['client', 'internal'],
    ['producer', 'internal'],
    ['consumer', 'internal'],
    ['', 'internal'],
  ])('%j is stored as %s', (sent, stored) => {
    expect(storedSpanKind(sent)).toBe(stored)
  })

  it.each([
    ['a top-level kind outside the list', { kind: 'job' }, 'internal', 'job'],
    ['a kind in another case', { kind: 'DB' }, 'db', 'DB'],
    ['span_kind, its alias', { span_kind: 'graphql' }, 'internal', 'graphql'],
    ['a kind sent in context only', { context: { kind: 'consumer' } }, 'internal', 'consumer'],
    [
      'a context.kind the client set is kept as is',
      { kind: 'graphql', context: { kind: 'GraphQL' } },
      'internal',
      'GraphQL',
    ],
    ['a listed kind', { kind: 'http' }, 'http', 'http'],
  ])('%s: stored %s, context.kind %s', (_rule, fields, stored, inContext) => {
    const event = acceptedValue(span(fields))
    expect(event.kind).toBe(stored)
    expect(event.context.kind).toBe(inContext)
  })

  it('a span without a kind keeps none', () => {
    const event = acceptedValue(span({}))
    expect(event.kind).toBeUndefined()
    expect(event.context).not.toHaveProperty('kind')
  })

  it.each([[7], [true], [{}], [['db']]])('a kind that is not a string (%j) is a 422', (kind) => {
    expect(errorsOf(span({ kind }))).toEqual(['kind must be a string'])
  })

  it('logister-js sends kind and span_kind in context as well: both stay as sent', () => {
    // logister-js src/client.ts captureSpan: top-level kind, context.span_kind and context.kind.
    const event = acceptedValue(
      span({ kind: 'graphql', context: { span_kind: 'graphql', kind: 'graphql' } }),
    )
    expect(event.kind).toBe('internal')
    expect(event.context.kind).toBe('graphql')
  })
})
