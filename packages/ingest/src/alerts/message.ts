import type { AlertTrigger, ClaimedAlertDelivery } from '../ports/alerts'

/** What every format of a notification is rendered from: a delivery as claimed. */
export type AlertMessageSource = Pick<
  ClaimedAlertDelivery,
  | 'id'
  | 'projectId'
  | 'projectName'
  | 'ruleId'
  | 'ruleName'
  | 'channelName'
  | 'trigger'
  | 'payload'
  | 'createdAt'
>

const ISSUE_HEADLINES: Record<'new_issue' | 'regression' | 'spike', string> = {
  new_issue: 'New issue',
  regression: 'Regression',
  spike: 'Spike',
}

const MONITOR_HEADLINES: Record<'monitor_missed' | 'monitor_failed' | 'monitor_recovered', string> =
  {
    monitor_missed: 'missed its check-in',
    monitor_failed: 'failed',
    monitor_recovered: 'recovered',
  }

const SUMMARY_NOUNS: Record<AlertTrigger, [one: string, many: string]> = {
  new_issue: ['new issue', 'new issues'],
  regression: ['regression', 'regressions'],
  spike: ['spike', 'spikes'],
  monitor_missed: ['monitor missed its check-in', 'monitors missed their check-ins'],
  monitor_failed: ['monitor failed', 'monitors failed'],
  monitor_recovered: ['monitor recovered', 'monitors recovered'],
  release_crash_free_below: [
    'release fell below its crash-free threshold',
    'releases fell below their crash-free threshold',
  ],
}

/** A fraction as a percentage with two decimals: 0.9951 → "99.51%". */
export const percent = (fraction: number) =>
  `${(Math.floor(fraction * 10_000 + 1e-6) / 100).toFixed(2)}%`

/** "12 more new issues in checkout": the headline of a summary of `count` causes. */
function summaryHeadline(trigger: AlertTrigger, count: number, projectName: string): string {
  const [one, many] = SUMMARY_NOUNS[trigger]
  return `${count.toLocaleString('en-US')} more ${count === 1 ? one : many} in ${projectName}`
}

/** The headline of a notification, without its subject: "New issue in checkout". */
export function alertHeadline(source: AlertMessageSource): string {
  const trigger: AlertTrigger | 'test' = source.trigger
  const { summary } = source.payload
  if (summary && trigger !== 'test') {
    return summaryHeadline(trigger, summary.count, source.projectName)
  }
  switch (trigger) {
    case 'test':
      return `Test notification for ${source.projectName}`
    case 'new_issue':
    case 'regression':
    case 'spike':
      return `${ISSUE_HEADLINES[trigger]} in ${source.projectName}`
    case 'monitor_missed':
    case 'monitor_failed':
    case 'monitor_recovered': {
      const m = source.payload.monitor
      const name = m ? `${m.slug} (${m.environment})` : 'a monitor'
      return `Monitor ${name} ${MONITOR_HEADLINES[trigger]} in ${source.projectName}`
    }
    case 'release_crash_free_below': {
      const r = source.payload.release
      if (!r) return `A release fell below its crash-free threshold in ${source.projectName}`
      const where = r.environment ? ` (${r.environment})` : ''
      return `Release ${r.version}${where} is ${percent(r.crash_free_sessions)} crash-free, below ${percent(r.threshold)}, in ${source.projectName}`
    }
  }
}

/**
 * The one-line text of a notification (the webhook's `text`, Slack's fallback, the email
 * subject): the headline and, for issue triggers, the issue's title.
 */
export function alertText(source: AlertMessageSource): string {
  const headline = alertHeadline(source)
  if (source.trigger === 'test') return `${headline}: the channel "${source.channelName}" works`
  const { issue, spike, summary } = source.payload
  if (summary)
    return `${headline} (${summary.since.slice(11, 16)}–${summary.until.slice(11, 16)} UTC)`
  if (!issue) return headline
  const counted = spike ? ` (${spike.count} events in ${spike.window_seconds} s)` : ''
  return `${headline}: ${issue.title}${counted}`
}

/** The facts of a notification as label/value lines, for Slack and email bodies. */
export function alertFacts(source: AlertMessageSource): Array<[string, string]> {
  const { issue, event, spike, monitor, release, summary } = source.payload
  const facts: Array<[string, string | null | undefined]> = [
    ['Project', source.projectName],
    ['Rule', source.ruleName],
  ]
  if (summary) {
    const detail = `${summary.count} between ${summary.since} and ${summary.until}, beyond the rule's ten messages a minute`
    facts.push(['Summary', detail])
    for (const i of summary.issues ?? []) facts.push(['Issue', `${i.title} (${i.count} events)`])
    for (const m of summary.monitors ?? []) facts.push(['Monitor', `${m.slug} (${m.environment})`])
    for (const r of summary.releases ?? []) {
      facts.push(['Release', `${r.version} (${percent(r.crash_free_sessions)} crash-free)`])
    }
  }
  if (issue) {
    facts.push(['Issue', issue.title], ['Level', issue.level], ['Status', issue.status])
    facts.push(['Events', String(issue.count)], ['Last seen', issue.last_seen_at])
    facts.push(['Release', issue.last_release])
  }
  if (event) facts.push(['Environment', event.environment], ['Message', event.message])
  if (spike) {
    const detail = `${spike.count} events in ${spike.window_seconds} s (threshold ${spike.threshold})`
    facts.push(['Spike', detail])
  }
  if (monitor) {
    facts.push(['Monitor', monitor.slug], ['Environment', monitor.environment])
    facts.push(['Last status', monitor.last_status], ['Last check-in', monitor.last_check_in_at])
    facts.push(['Deadline', monitor.missed_after])
  }
  if (release) {
    facts.push(['Release', release.version], ['Environment', release.environment ?? 'all'])
    facts.push(['Crash-free sessions', percent(release.crash_free_sessions)])
    facts.push(['Threshold', percent(release.threshold)])
    const detail = `${release.crashed} crashed of ${release.sessions} in the last ${release.window_seconds} s`
    facts.push(['Sessions', detail])
  }
  return facts.filter((f): f is [string, string] => typeof f[1] === 'string' && f[1] !== '')
}
