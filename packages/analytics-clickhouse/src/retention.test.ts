import { describe, expect, it } from 'vitest'
import { lastExpiredMonth, ttlUpgradeStatement } from './retention'
import { analyticsDdl, DEFAULT_ANALYTICS_TABLES } from './schema'
import { featuresOf } from './server-features'

// The TTL path's DDL text; the same path on a real ClickHouse 26.x engine (chdb) is in
// test/ttl-chdb.int.test.ts.
const RAW = { table: 'events_raw', column: 'occurred_at', days: 90 }
const CREATE =
  "CREATE TABLE tis.events_raw (`occurred_at` DateTime64(3, 'UTC')) ENGINE = MergeTree PARTITION BY toYYYYMM(occurred_at) ORDER BY occurred_at"

describe('retention DDL on ClickHouse 21+', () => {
  it('puts the raw period on raw tables and the rollup period on rollups', () => {
    const ddl = analyticsDdl(DEFAULT_ANALYTICS_TABLES, featuresOf('24.8.4.13'), {
      retentionDays: 90,
      rollupRetentionDays: 400,
    })
    expect(ddl[1]).toContain('TTL toDateTime(occurred_at) + INTERVAL 90 DAY')
    expect(ddl[2]).toContain('TTL toDateTime(started_at) + INTERVAL 90 DAY')
    expect(ddl[3]).toContain('TTL toDateTime(minute) + INTERVAL 400 DAY')
    expect(ddl[4]).toContain('TTL toDateTime(minute) + INTERVAL 400 DAY')
    expect(ddl[7]).toContain('session_minutes')
    expect(ddl[7]).toContain('TTL toDateTime(minute) + INTERVAL 400 DAY')
  })

  it('has no TTL on a period of 0', () => {
    const ddl = analyticsDdl(DEFAULT_ANALYTICS_TABLES, featuresOf('24.8.4.13'), {
      retentionDays: 0,
      rollupRetentionDays: 0,
    })
    expect(ddl.join('\n')).not.toContain('TTL')
  })

  it.each([
    [
      'adds a TTL to a table without one',
      CREATE,
      RAW,
      'ALTER TABLE `tis`.`events_raw` MODIFY TTL toDateTime(occurred_at) + INTERVAL 90 DAY',
    ],
    [
      'changes another period',
      `${CREATE} TTL toDateTime(occurred_at) + toIntervalDay(30) SETTINGS index_granularity = 8192`,
      RAW,
      'ALTER TABLE `tis`.`events_raw` MODIFY TTL toDateTime(occurred_at) + INTERVAL 90 DAY',
    ],
    [
      'leaves the same period alone',
      `${CREATE} TTL toDateTime(occurred_at) + toIntervalDay(90) SETTINGS index_granularity = 8192`,
      RAW,
      undefined,
    ],
    [
      'removes the TTL when the period becomes 0',
      `${CREATE} TTL toDateTime(occurred_at) + toIntervalDay(90)`,
      { ...RAW, days: 0 },
      'ALTER TABLE `tis`.`events_raw` REMOVE TTL',
    ],
    ['does nothing for 0 without a TTL', CREATE, { ...RAW, days: 0 }, undefined],
  ])('%s', (_name, query, target, statement) => {
    expect(ttlUpgradeStatement('tis', target, query)).toBe(statement)
  })
})

describe('lastExpiredMonth', () => {
  it.each([
    ['2026-11-22T12:00:00Z', 90, 202607],
    ['2026-03-01T00:00:00Z', 0, 202602],
    ['2026-01-10T00:00:00Z', 5, 202512],
  ])('now %s, %i days: months up to %i are wholly expired', (now, days, month) => {
    expect(lastExpiredMonth(new Date(now), days)).toBe(month)
  })
})
