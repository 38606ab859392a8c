/** `3 minutes ago`, `in 2 hours`: coarse, for tables; the exact time goes in `title`. */
export function relativeTime(iso: string | null | undefined, now: Date): string {
  if (!iso) return '—'
  const seconds = Math.round((new Date(iso).getTime() - now.getTime()) / 1000)
  const abs = Math.abs(seconds)
  const [value, unit] =
    abs < 60
      ? [abs, 'second']
      : abs < 3600
        ? [Math.floor(abs / 60), 'minute']
        : abs < 86_400
          ? [Math.floor(abs / 3600), 'hour']
          : [Math.floor(abs / 86_400), 'day']
  const text = `${value} ${unit}${value === 1 ? '' : 's'}`
  return seconds <= 0 ? `${text} ago` : `in ${text}`
}

/** Milliseconds for a table cell: `12.3 ms`, `1.20 s`, `—` for null. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—'
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`
  return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`
}

/** A ratio as a percentage: `25.0%`. */
export function formatPercent(ratio: number | null | undefined): string {
  return ratio === null || ratio === undefined ? '—' : `${(ratio * 100).toFixed(1)}%`
}

/**
 * A crash-free rate with two decimals, rounded down so that one crash never shows as `100.00%`:
 * `99.52%`, `—` for null.
 */
export function formatRate(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined) return '—'
  // The epsilon keeps float noise (0.9952 * 10000 = 9951.999…) from costing a hundredth.
  return `${(Math.floor(ratio * 10_000 + 1e-6) / 100).toFixed(2)}%`
}

/** A count that may have hit a page cap: `200+`. */
export function formatCapped(count: number, capped: boolean): string {
  return capped ? `${count}+` : String(count)
}

/** The first characters of a long id or sha. */
export function shortId(id: string | null | undefined, length = 8): string {
  return id ? id.slice(0, length) : '—'
}

/** An ISO time `hours` before `now`. */
export function hoursAgo(now: Date, hours: number): string {
  return new Date(now.getTime() - hours * 3_600_000).toISOString()
}

export { formatBytes } from '@tis/schema'
