import { describe, expect, it } from 'vitest'
import type { IssueActivityQuery } from '../ports'
import { latencyBucketsJson, parseSparkline, sparklineWindow, withSparklines } from './charts'

const t = (iso: string) => new Date(iso)

describe('sparklines', () => {
  it('accepts only sparkline=24h', () => {
    expect(parseSparkline({})).toEqual({ ok: true, value: false })
    expect(parseSparkline({ sparkline: '24h' })).toEqual({ ok: true, value: true })
    expect(parseSparkline({ sparkline: '' })).toEqual({
      ok: false,
      errors: ['sparkline must be 24h'],
    })
  })

  it.each([
    [
      'mid-hour',
      '2026-06-01T12:34:56.789Z',
      '2026-05-31T13:00:00.000Z',
      '2026-06-01T13:00:00.000Z',
    ],
    [
      'on the hour',
      '2026-06-01T12:00:00.000Z',
      '2026-05-31T13:00:00.000Z',
      '2026-06-01T13:00:00.000Z',
    ],
  ])('ends the 24 whole hours with the current one (%s)', (_name, now, since, until) => {
    const w = sparklineWindow(t(now))
    expect([w.since.toISOString(), w.until.toISOString()]).toEqual([since, until])
  })

  it('places each bucket at its hour, zero elsewhere, in one store call for the page', async () => {
    const calls: IssueActivityQuery[] = []
    const store = {
      issueActivity: async (q: IssueActivityQuery) => {
        calls.push(q)
        return [
          { issueId: 'a', start: t('2026-05-31T13:00:00.000Z'), count: 4 },
          { issueId: 'a', start: t('2026-06-01T12:00:00.000Z'), count: 2 },
          { issueId: 'b', start: t('2026-06-01T00:00:00.000Z'), count: 1 },
        ]
      },
    }
    const issues = [{ id: 'a' }, { id: 'b' }, { id: 'c' }]
    const out = await withSparklines(store, 'p', issues, t('2026-06-01T12:30:00.000Z'))
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({
      projectId: 'p',
      issueIds: ['a', 'b', 'c'],
      intervalSeconds: 3600,
    })
    const a = new Array(24).fill(0)
    a[0] = 4
    a[23] = 2
    const b = new Array(24).fill(0)
    b[11] = 1
    expect(out.map((i) => i.sparkline)).toEqual([a, b, new Array(24).fill(0)])
    expect(await withSparklines(store, 'p', [], new Date())).toEqual([])
    expect(calls).toHaveLength(1)
  })
})

describe('latencyBucketsJson', () => {
  it('returns every bucket of the window, empty ones with count 0 and null timings', () => {
    const since = t('2026-06-01T12:00:00.000Z')
    const until = t('2026-06-01T12:15:00.000Z')
    const stored = {
      start: t('2026-06-01T12:05:00.000Z'),
      count: 2,
      errorCount: 1,
      p50: 10,
      p95: 19,
      p99: 19.8,
      avg: 10,
    }
    const empty = {
      count: 0,
      error_count: 0,
      p50_ms: null,
      p95_ms: null,
      p99_ms: null,
      avg_ms: null,
    }
    expect(latencyBucketsJson([stored], since, until, 300)).toEqual([
      { start: '2026-06-01T12:00:00.000Z', ...empty },
      {
        start: '2026-06-01T12:05:00.000Z',
        count: 2,
        error_count: 1,
        p50_ms: 10,
        p95_ms: 19,
        p99_ms: 19.8,
        avg_ms: 10,
      },
      { start: '2026-06-01T12:10:00.000Z', ...empty },
    ])
  })
})
