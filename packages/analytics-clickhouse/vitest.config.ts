import { defineTisProject } from '@tis/test-utils/vitest'

export default defineTisProject('analytics-clickhouse', {
  // Every suite talks to a real ClickHouse server that the parallel run shares: one migrate is
  // ten DDL statements, and on two loaded cores ClickHouse 18.16 takes seconds for them.
  testTimeout: 30_000,
  hookTimeout: 60_000,
})
