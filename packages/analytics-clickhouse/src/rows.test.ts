import { describe, expect, it } from 'vitest'
import {
  epochMs,
  exceptionClassOf,
  routeOf,
  sessionMinuteRow,
  tagColumns,
  timestampColumns,
} from './rows'

const SESSION_MINUTE = {
  project_id: 'p-1',
  release: 'shop@1.0.0',
  environment: 'production',
  minute: '2026-11-22T10:15:00+00:00',
  healthy: 3,
  errored: 1,
  abnormal: 2,
  crashed: 1,
  version: '9007199254740993',
}

describe('row mapping', () => {
  it.each([
    [{ exception_class: 'A', exception: { type: 'B' } }, 'A'],
    [{ exception: { exception_class: 'E' } }, 'E'],
    [{ exception: { class: 'C', type: 'T' } }, 'C'],
    [{ exception: { type: 'T', name: 'N' } }, 'T'],
    [{ exception: { name: 'N' } }, 'N'],
    [{ exception: 'not an object' }, ''],
    [{}, ''],
  ])('exception class of %j is %j', (context, expected) => {
    expect(exceptionClassOf(context)).toBe(expected)
  })

  it.each([
    [{ route: '/a', request: { route: '/b' } }, '/a'],
    [{ request: { route: '/b' } }, '/b'],
    [{}, 'span name'],
  ])('route of %j is %j', (context, expected) => {
    expect(routeOf(context, 'span name')).toBe(expected)
  })

  it('turns tags into parallel key and value arrays', () => {
    expect(tagColumns({ tags: { a: '1', b: 2, c: null } })).toEqual({
      tag_keys: ['a', 'b'],
      tag_values: ['1', '2'],
    })
    expect(tagColumns({})).toEqual({ tag_keys: [], tag_values: [] })
  })

  it('writes UTC timestamps with milliseconds in either layout', () => {
    const ms = epochMs('2026-11-22T12:15:30.123+02:00')
    expect(timestampColumns('at', ms, 'datetime64')).toEqual({ at: '2026-11-22 10:15:30.123' })
    expect(timestampColumns('at', ms, 'datetime_ms')).toEqual({
      at: '2026-11-22 10:15:30',
      at_ms: 123,
    })
  })

  it('maps a missing or invalid date to the epoch instead of throwing', () => {
    expect(epochMs('nonsense')).toBe(0)
    expect(epochMs(null)).toBe(0)
  })

  it('maps a session minute with its counts, the minute as DateTime and the exact version', () => {
    expect(sessionMinuteRow(SESSION_MINUTE)).toEqual({
      project_id: 'p-1',
      release: 'shop@1.0.0',
      environment: 'production',
      minute: '2026-11-22 10:15:00',
      healthy: 3,
      errored: 1,
      abnormal: 2,
      crashed: 1,
      version: '9007199254740993',
    })
  })

  it.each([
    [
      'a minute with seconds',
      { minute: '2026-11-22T10:15:42.5Z' },
      { minute: '2026-11-22 10:15:00' },
    ],
    ['another offset', { minute: '2026-11-22T12:15:00+02:00' }, { minute: '2026-11-22 10:15:00' }],
    ['a count that is not an integer', { crashed: 1.5 }, { crashed: 0 }],
    ['a version that is not a decimal', { version: '-1' }, { version: '0' }],
  ])('maps %s to a neutral value instead of throwing', (_, overrides, expected) => {
    expect(sessionMinuteRow({ ...SESSION_MINUTE, ...overrides })).toMatchObject(expected)
  })
})
