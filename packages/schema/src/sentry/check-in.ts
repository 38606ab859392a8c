import type { JsonObject } from '../keys'
import { defined, num, obj, str } from './common'

// Sentry's `check_in` item (Sentry Crons: https://develop.sentry.dev/sdk/telemetry/check-ins/)
// as the native check-in envelope of the monitor named by `monitor_slug`.

const UNIT_SECONDS: Record<string, number> = {
  minute: 60,
  hour: 3_600,
  day: 86_400,
  week: 604_800,
  month: 2_592_000,
  year: 31_536_000,
}

/**
 * How often a schedule expects a check-in, in seconds: an `interval` schedule's value times its
 * unit; a crontab whose minute field is `*` or `*\/n` and the rest `*` (every n minutes), or a
 * fixed minute with `*` or `*\/n` hours (hourly), or fixed minute and hour (daily). `undefined`
 * for other crontabs: tis then keeps its default interval (docs/guides/sentry-sdks.md).
 */
export function intervalOfSchedule(v: unknown): number | undefined {
  const schedule = obj(v)
  if (!schedule) return undefined
  if (schedule['type'] === 'interval') {
    const value = num(schedule['value'])
    const unit = UNIT_SECONDS[str(schedule['unit'])?.replace(/s$/, '') ?? '']
    return value !== undefined && value > 0 && unit ? Math.round(value * unit) : undefined
  }
  const cron = str(schedule['value'])?.trim().split(/\s+/)
  if (schedule['type'] !== 'crontab' || cron?.length !== 5) return undefined
  const [minute, hour, dom, month, dow] = cron as [string, string, string, string, string]
  if (dom !== '*' || month !== '*') return undefined
  const every = (field: string) => (field === '*' ? 1 : /^\*\/(\d+)$/.exec(field)?.[1])
  const fixed = (field: string) => /^\d+$/.test(field)
  const minutes = every(minute)
  if (minutes !== undefined && hour === '*' && dow === '*') return Number(minutes) * 60
  const hours = every(hour)
  if (fixed(minute) && hours !== undefined && dow === '*') return Number(hours) * 3_600
  if (fixed(minute) && fixed(hour)) return dow === '*' ? 86_400 : fixed(dow) ? 604_800 : undefined
  return undefined
}

/** Sentry's check-in statuses as tis's: `in_progress`, `ok`, `error` (`timeout` is an error). */
const statusOf = (v: unknown) => {
  const s = str(v)
  return s === 'timeout' ? 'error' : s
}

/** Sentry's `check_in` item payload as the native check-in envelope. */
export function sentryCheckInEnvelope(checkIn: JsonObject): { check_in: JsonObject } {
  const config = obj(checkIn['monitor_config'])
  const duration = num(checkIn['duration'])
  return {
    check_in: defined({
      slug: str(checkIn['monitor_slug']),
      status: statusOf(checkIn['status']),
      environment: str(checkIn['environment']),
      release: str(checkIn['release']),
      duration_ms:
        duration !== undefined && duration >= 0 ? Math.round(duration * 1000) : undefined,
      expected_interval_seconds: intervalOfSchedule(config?.['schedule']),
      trace_id: str(obj(obj(checkIn['contexts'])?.['trace'])?.['trace_id']),
      check_in_id: str(checkIn['check_in_id']),
      monitor_config: config,
    }),
  }
}
