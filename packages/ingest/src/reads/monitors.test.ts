import { describe, expect, it } from 'vitest'
import type { MonitorRecord } from '../ports'
import { monitorGraceSeconds, monitorJson, monitorStatus } from './monitors'

const last = new Date('2026-06-01T12:00:00.000Z')
const monitor = (fields: Partial<MonitorRecord> = {}): MonitorRecord => ({
  id: '00000000-0000-4000-8000-000000000001',
  slug: 'nightly',
  environment: 'prod',
  health: 'ok',
  lastStatus: 'ok',
  lastCheckInAt: last,
  expectedIntervalSeconds: 3600,
  lastRelease: null,
  checkInCount: 1,
  ...fields,
})
const after = (seconds: number) => new Date(last.getTime() + seconds * 1000)

describe('monitor status', () => {
  it('grace is half the interval, at least 30 s', () => {
    expect(monitorGraceSeconds(3600)).toBe(1800)
    expect(monitorGraceSeconds(60)).toBe(30)
    expect(monitorGraceSeconds(10)).toBe(30)
  })

  it('is missed only strictly after interval + grace', () => {
    expect(monitorStatus(monitor(), after(5400))).toBe('ok')
    expect(monitorStatus(monitor(), after(5400.001))).toBe('missed')
    expect(monitorStatus(monitor({ expectedIntervalSeconds: 60 }), after(90))).toBe('ok')
    expect(monitorStatus(monitor({ expectedIntervalSeconds: 60 }), after(91))).toBe('missed')
  })

  it('error wins over missed; unknown health is ok until missed', () => {
    expect(monitorStatus(monitor({ health: 'error' }), after(1e6))).toBe('error')
    expect(monitorStatus(monitor({ health: null }), after(10))).toBe('ok')
    expect(monitorStatus(monitor({ health: null }), after(1e6))).toBe('missed')
  })

  it('shows next_expected_at and missed_after', () => {
    expect(monitorJson(monitor(), after(0))).toMatchObject({
      status: 'ok',
      next_expected_at: '2026-06-01T13:00:00.000Z',
      missed_after: '2026-06-01T13:30:00.000Z',
    })
  })
})
