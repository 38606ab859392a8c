import type { ProjectExpiry, RetentionReport } from '@tis/ingest'
import { formatBytes, type Retention } from '@tis/schema'
import type { Command } from './command'
import { table } from './format'
import { id } from './request-parts'

const retentionOf = (body: unknown) => (body as { retention: Retention }).retention

const period = (days: number) => (days === 0 ? 'forever' : `${days} days`)

/** A project's retention as `key: value` lines and its usage as a table. */
export function retentionDetails(r: Retention): string {
  const source = r.project_days === null ? 'the server default' : "the project's own"
  const rows = (
    [
      ['events', r.usage.events],
      ['spans', r.usage.spans],
      ['check-ins', r.usage.check_ins],
      ['source-map uploads', r.usage.artifacts],
    ] as const
  ).map(([kind, f]) => [kind, String(f.rows), formatBytes(f.bytes)])
  return [
    `kept:     ${period(r.days)} (${source})`,
    `default:  ${period(r.default_days)}`,
    `disk:     ${formatBytes(r.usage.total_bytes)} (approximate)`,
    '',
    table(['kind', 'rows', 'bytes'], rows),
  ].join('\n')
}

/** `tis retention show|set`: a project's retention period and disk use. */
export const RETENTION_COMMANDS: readonly Command[] = [
  {
    name: 'retention show',
    args: ['<project_id>'],
    summary: "Show how long a project's telemetry is kept and what it occupies.",
    async run({ client, args }) {
      const json = await client.request('GET', `/api/v1/projects/${id(args[0]!)}/retention`)
      return { json, human: () => retentionDetails(retentionOf(json)) }
    },
  },
  {
    name: 'retention set',
    args: ['<project_id>'],
    options: '--days <n|default>',
    summary:
      "Keep a project's events, spans and check-ins n days (0: forever, administrators only; longer than the default: administrators only); `default` follows SERVICE_RETENTION_DAYS.",
    validate: ({ options }) =>
      options.days === undefined ? 'retention set needs --days <n|default>' : undefined,
    async run({ client, args, options }) {
      const value = options.days
      const days = value === 'default' ? null : /^\d+$/.test(value ?? '') ? Number(value) : value
      const json = await client.request('PUT', `/api/v1/projects/${id(args[0]!)}/retention`, {
        retention: { days },
      })
      return { json, human: () => retentionDetails(retentionOf(json)) }
    },
  },
]

/** `tis prune`'s report: one row per project with a period. */
export function pruneReport(report: RetentionReport): string {
  const verb = report.dryRun ? 'would delete' : 'deleted'
  const rows = report.projects.map((p: ProjectExpiry) => [
    p.projectName,
    p.projectId,
    period(p.days),
    p.cutoff.toISOString(),
    String(p.events),
    String(p.spans),
    String(p.checkIns),
    String(p.issues),
    String(p.artifactBundles),
    String(p.sessionMinutes),
  ])
  const sum = (k: 'events' | 'spans' | 'checkIns' | 'artifactBundles' | 'sessionMinutes') =>
    report.projects.reduce((n, p) => n + p[k], 0)
  return [
    table(
      [
        'project',
        'id',
        'kept',
        'before',
        'events',
        'spans',
        'check-ins',
        'issues emptied',
        'source-map uploads',
        'session minutes',
      ],
      rows,
    ),
    `${report.dryRun ? 'Dry run: ' : ''}${verb} ${sum('events')} events, ${sum('spans')} spans, ${sum('checkIns')} check-ins, ${sum('artifactBundles')} source-map uploads, ${sum('sessionMinutes')} minutes of sessions and ${report.artifactChunks} stale upload chunks.\n`,
  ].join('\n')
}
