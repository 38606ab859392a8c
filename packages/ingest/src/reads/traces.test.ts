import { describe, expect, it } from 'vitest'
import type { SpanRecord } from '../ports/read-records'
import { inStartOrder, traceTree } from './traces'

const AT = new Date('2026-11-27T04:00:00.000Z')

function span(id: string, spanId: string, parentSpanId: string | null, offsetMs = 0): SpanRecord {
  return {
    id,
    traceId: 't',
    spanId,
    parentSpanId,
    name: spanId,
    kind: null,
    startedAt: new Date(AT.getTime() + offsetMs),
    endedAt: null,
    durationMs: null,
    environment: null,
    release: null,
    status: null,
    level: null,
    payload: {},
  }
}

const names = (spans: readonly SpanRecord[]) => spans.map((s) => s.name)

describe('inStartOrder', () => {
  it('puts a parent before the children that start in the same instant, whatever the ids', () => {
    // The store orders ties by id: here the grandchild and the child sort before the root.
    const stored = [
      span('a', 'grandchild', 'child'),
      span('b', 'child', 'root'),
      span('c', 'root', null),
    ]
    const { depthOf } = traceTree(stored)
    expect(names(inStartOrder(stored, depthOf))).toEqual(['root', 'child', 'grandchild'])
  })

  it('keeps start order first, and the store order between siblings that start together', () => {
    const stored = [
      span('a', 'late-root-child', 'root', 5),
      span('b', 'sibling-1', 'root'),
      span('c', 'sibling-2', 'root'),
      span('d', 'root', null),
    ]
    const sorted = [...stored].sort((x, y) => x.startedAt.getTime() - y.startedAt.getTime())
    const { depthOf } = traceTree(sorted)
    expect(names(inStartOrder(sorted, depthOf))).toEqual([
      'root',
      'sibling-1',
      'sibling-2',
      'late-root-child',
    ])
  })
})
