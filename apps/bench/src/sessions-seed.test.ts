import { describe, expect, it } from 'vitest'
import { planBodies } from './sessions-bodies'
import { latencyOf } from './sessions-reads'
import { HEALTH_RELEASE, SESSION_LINES, sessionOps } from './sessions-seed'

const HOUR_MS = 3_600_000
const now = Date.UTC(2026, 10, 30, 12, 30)

describe('the release-health seeding', () => {
  const line = SESSION_LINES[0]!
  const ops = [...sessionOps('p', now, [line], 2)]
  const buckets = ops.flatMap((op) => (op.session.kind === 'aggregate' ? op.session.buckets : []))

  it('writes one aggregate per hour of the days, every minute of them, none after now', () => {
    expect(ops).toHaveLength(2 * 24 + 1)
    expect(ops.every((op) => op.session.release === HEALTH_RELEASE)).toBe(true)
    const minutes = new Set(buckets.filter((b) => b.did === null).map((b) => b.started))
    expect(minutes.size).toBe(2 * 24 * 60 + 30)
    expect(buckets.every((b) => Date.parse(b.started) < now)).toBe(true)
  })

  it('names each hour’s users once, from the line’s pool', () => {
    const firstHour = Math.floor(now / HOUR_MS) * HOUR_MS - 2 * 24 * HOUR_MS
    const users = buckets.filter(
      (b) => b.did !== null && Date.parse(b.started) < firstHour + HOUR_MS,
    )
    expect(new Set(users.map((b) => b.did)).size).toBe(users.length)
    expect(users.length).toBeGreaterThan(0)
    expect(users.every((b) => Number(b.did?.slice(5)) < line.users)).toBe(true)
  })
})

describe('the ingest plans', () => {
  it('sends a session envelope after every fifth event in plan B, none in plan A', () => {
    const a = planBodies('http://key@127.0.0.1/1', 'none')
    const b = planBodies('http://key@127.0.0.1/1', 'own')
    const kinds = Array.from({ length: 60 }, () => b.next().split('\n')[1])
    for (let i = 0; i < 60; i++) a.next()
    expect(a.made).toEqual({ event: 60, session: 0 })
    expect(b.made).toEqual({ event: 50, session: 10 })
    expect(kinds.filter((k) => k !== '{"type":"event"}').length).toBe(10)
  })

  it('puts a session item in every fifth event envelope in plan C', () => {
    const c = planBodies('http://key@127.0.0.1/1', 'along')
    const bodies = Array.from({ length: 10 }, () => c.next())
    expect(c.made).toEqual({ event: 10, session: 2 })
    const items = bodies[4]!.split('\n').map((l) => JSON.parse(l) as { type?: string })
    expect(items.map((i) => i.type).filter(Boolean)).toEqual([
      'event',
      expect.stringMatching(/^sessions?$/),
    ])
    expect(items).toHaveLength(5)
  })
})

describe('latencyOf', () => {
  it('takes percentiles by nearest rank over any order', () => {
    const ms = Array.from({ length: 200 }, (_, i) => 200 - i)
    expect(latencyOf('r', ms)).toMatchObject({
      requests: 200,
      p50: 100,
      p95: 190,
      p99: 198,
      max: 200,
    })
  })
})
