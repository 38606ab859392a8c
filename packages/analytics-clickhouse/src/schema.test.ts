import { describe, expect, it } from 'vitest'
import { analyticsDdl, DEFAULT_ANALYTICS_TABLES, requiredTableNames } from './schema'
import { featuresOf } from './server-features'

describe('analyticsDdl', () => {
  it.each([
    ['18.16.1', false],
    ['20.12.5.1', false],
    ['21.1.2', true],
    ['24.8.4.13', true],
    ['garbage', false],
  ])('version %s uses the modern extras: %s', (version, modern) => {
    expect(featuresOf(version)).toEqual({ version, modern })
  })

  it('uses plain types before ClickHouse 21: DateTime plus *_ms, no LowCardinality, no TTL', () => {
    const ddl = analyticsDdl(DEFAULT_ANALYTICS_TABLES, featuresOf('18.16.1'), {
      retentionDays: 30,
    }).join('\n')
    expect(ddl).toContain("occurred_at DateTime('UTC'), occurred_at_ms UInt16")
    expect(ddl).not.toMatch(/DateTime64|LowCardinality|TTL/)
  })

  it('uses DateTime64(3), LowCardinality and the retention TTL on 21+', () => {
    const ddl = analyticsDdl(DEFAULT_ANALYTICS_TABLES, featuresOf('24.8.4.13'), {
      retentionDays: 30,
    }).join('\n')
    expect(ddl).toContain("occurred_at DateTime64(3, 'UTC')")
    expect(ddl).toContain('event_type LowCardinality(String)')
    expect(ddl).toContain('TTL toDateTime(occurred_at) + INTERVAL 30 DAY')
    expect(ddl).not.toContain('occurred_at_ms')
  })

  it('creates everything with IF NOT EXISTS, database first', () => {
    const ddl = analyticsDdl(DEFAULT_ANALYTICS_TABLES, featuresOf('18.16.1'))
    expect(ddl[0]).toBe('CREATE DATABASE IF NOT EXISTS `tis`')
    expect(ddl.every((statement) => statement.includes('IF NOT EXISTS'))).toBe(true)
  })

  it('requires the raw tables (as configured), both rollups, both views and session minutes', () => {
    expect(
      requiredTableNames({
        database: 'x',
        eventsTable: 'ev',
        spansTable: 'sp',
        sessionsTable: 'se',
      }),
    ).toEqual([
      'ev',
      'sp',
      'events_1m',
      'events_1m_mv',
      'request_spans_1m',
      'request_spans_1m_mv',
      'se',
    ])
  })

  it('keeps the session minutes of the highest version per (project, release, environment, minute)', () => {
    const ddl = analyticsDdl(DEFAULT_ANALYTICS_TABLES, featuresOf('18.16.1'))
    const sessions = ddl.find((statement) => statement.includes('`tis`.`session_minutes`'))
    expect(sessions).toContain('version UInt64')
    expect(sessions).toContain(
      'ENGINE = ReplacingMergeTree(version) PARTITION BY toYYYYMM(minute) ORDER BY (project_id, release, environment, minute)',
    )
  })
})
