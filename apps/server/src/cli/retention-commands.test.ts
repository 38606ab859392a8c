import type { RetentionReport } from '@tis/ingest'
import { retentionAnswerSchema } from '@tis/schema'
import { describe, expect, it } from 'vitest'
import { pruneReport, retentionDetails } from './retention-commands'

const figure = (rows: number, bytes: number) => ({ rows, bytes })

describe('tis retention show', () => {
  it('lists source-map uploads among the kinds, in the total', () => {
    const { retention } = retentionAnswerSchema.parse({
      retention: {
        days: 30,
        project_days: 30,
        default_days: 90,
        usage: {
          events: figure(7, 7000),
          spans: figure(3, 900),
          check_ins: figure(1, 100),
          artifacts: figure(2, 2_500_000),
          total_bytes: 2_508_000,
        },
      },
    })
    const text = retentionDetails(retention)
    expect(text).toMatch(/source-map uploads\s+2\s+2\.5 MB/)
    expect(text).toContain('disk:     2.5 MB (approximate)')
  })
})

describe('tis prune', () => {
  it('reports the source-map uploads and stale chunks a pass deleted', () => {
    const report: RetentionReport = {
      dryRun: false,
      artifactChunks: 4,
      projects: [
        {
          projectId: 'p1',
          projectName: 'shop',
          days: 30,
          cutoff: new Date('2026-05-01T00:00:00Z'),
          events: 5,
          spans: 2,
          checkIns: 1,
          issues: 1,
          artifactBundles: 3,
          sessionMinutes: 7,
        },
      ],
    }
    const text = pruneReport(report)
    expect(text).toMatch(/source-map uploads/)
    expect(text).toMatch(/shop\s+p1\s+30 days\s+2026-05-01T00:00:00\.000Z\s+5\s+2\s+1\s+1\s+3\s+7/)
    expect(text).toContain(
      'deleted 5 events, 2 spans, 1 check-ins, 3 source-map uploads, 7 minutes of sessions and 4 stale upload chunks.',
    )
  })
})
