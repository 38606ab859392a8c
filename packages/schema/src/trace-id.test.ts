import { describe, expect, it } from 'vitest'
import { parseEventEnvelope } from './event'
import { acceptedValue } from './test-results'

const error = (fields: object) =>
  acceptedValue(parseEventEnvelope({ event: { event_type: 'error', message: 'boom', ...fields } }))

// A trace id only in a nested context object links the error to its trace.
describe('trace ids in nested context objects', () => {
  it.each([
    [
      'context.request.trace_id (logister-js Express error handler)',
      { request: { trace_id: 't1' } },
      't1',
    ],
    [
      'context.trace.traceId (logister-ruby Rack middleware)',
      { trace: { traceId: 't2', spanId: 's' } },
      't2',
    ],
    ['context.trace.trace_id', { trace: { trace_id: 't3' } }, 't3'],
    ['request before trace', { request: { trace_id: 'r' }, trace: { traceId: 't' } }, 'r'],
    ['trace_id before traceId', { trace: { traceId: 'camel', trace_id: 'snake' } }, 'snake'],
    ['a blank one is skipped', { request: { trace_id: ' ' }, trace: { traceId: 't4' } }, 't4'],
    ['a non-string one is skipped', { request: { trace_id: 5 }, trace: { traceId: 't5' } }, 't5'],
  ])('%s becomes trace_id', (_rule, context, traceId) => {
    const event = error({ context })
    expect(event.trace_id).toBe(traceId)
    expect(event.context.trace_id).toBe(traceId)
    expect(event.context).toMatchObject(context)
  })

  it.each<[string, Record<string, unknown>, string]>([
    [
      'a top-level trace_id wins',
      { trace_id: 'top', context: { trace: { traceId: 'nested' } } },
      'top',
    ],
    [
      'context.trace_id wins',
      { context: { trace_id: 'ctx', request: { trace_id: 'nested' } } },
      'ctx',
    ],
  ])('%s', (_rule, fields, traceId) => {
    const event = error(fields)
    expect(event.trace_id ?? event.context.trace_id).toBe(traceId)
    if (fields['trace_id'] === undefined) expect(event).not.toHaveProperty('trace_id')
  })

  it('context.trace is kept exactly as sent', () => {
    const trace = { traceId: 't', spanId: 's', requestId: 'r', sampled: true, traceparent: 'x' }
    expect(error({ context: { trace } }).context['trace']).toEqual(trace)
  })

  it('no nested trace id: no trace_id', () => {
    expect(error({ context: { request: { method: 'GET' } } })).not.toHaveProperty('trace_id')
  })
})
