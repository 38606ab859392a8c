/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import { ChartSvg, clock, round } from './charts'
import { formatRate } from './format'
import type { Html } from './layout'

/** One bucket of a release's sessions (`GET …/releases/:version`'s `series`). */
export interface SessionBucket {
  readonly at: string
  readonly sessions: number
  readonly crashed: number
  readonly errored: number
}

// Bottom to top: crashed, errored, then the rest of the bucket's sessions.
const PARTS = [
  ['crashed', '#a40e26'],
  ['errored', '#bf8700'],
  ['other', '#0a53be'],
] as const

/** The value of one part of a bucket's bar. */
const partOf = (b: SessionBucket, part: (typeof PARTS)[number][0]) =>
  part === 'other' ? Math.max(0, b.sessions - b.crashed - b.errored) : b[part]

/**
 * Sessions over a window as stacked bars (crashed, errored, the rest), each bar at its bucket's
 * time, with session and time axes; the description states the totals and the worst bucket.
 */
export function SessionChart(props: {
  series: readonly SessionBucket[]
  since: string
  until: string
  intervalSeconds: number
  title: string
}): Html {
  const { series, title } = props
  if (series.every((b) => b.sessions === 0)) {
    return <p class="muted">No sessions of this release in the window.</p>
  }
  const [width, height] = [760, 220]
  const [left, right, top, bottom] = [56, 16, 30, 30]
  const plotW = width - left - right
  const plotH = height - top - bottom
  const start = new Date(props.since).getTime()
  const span = Math.max(1, new Date(props.until).getTime() - start)
  const x = (ms: number) => left + ((ms - start) / span) * plotW
  const barW = Math.max(1, (props.intervalSeconds * 1000 * plotW) / span - 1)
  const max = Math.max(1, ...series.map((b) => b.sessions))
  const h = (v: number) => (v / max) * plotH
  const sum = (k: 'sessions' | 'crashed' | 'errored') => series.reduce((n, b) => n + b[k], 0)
  const worst = series.reduce((a, b) =>
    b.crashed / Math.max(1, b.sessions) > a.crashed / Math.max(1, a.sessions) ? b : a,
  )
  const days = span > 2 * 86_400_000
  const label = (ms: number) => {
    const iso = new Date(ms).toISOString()
    return days ? iso.slice(5, 10) : clock(iso)
  }
  return (
    <figure>
      <ChartSvg
        id="sessions"
        width={width}
        height={height}
        title={title}
        desc={`${sum('sessions')} sessions, ${sum('crashed')} crashed, ${sum('errored')} errored; lowest crash-free share ${formatRate(1 - worst.crashed / Math.max(1, worst.sessions))} in the bucket starting ${worst.at}.`}
      >
        {[0, max / 2, max].map((t) => (
          <>
            <line
              x1={left}
              x2={width - right}
              y1={round(top + plotH - h(t))}
              y2={round(top + plotH - h(t))}
              stroke="#d0d7de"
            ></line>
            <text x={left - 6} y={round(top + plotH - h(t)) + 4} text-anchor="end">
              {String(Math.round(t))}
            </text>
          </>
        ))}
        {[start, start + span / 2, start + span].map((ms) => (
          <text x={round(x(ms))} y={height - 10} text-anchor="middle">
            {label(ms)}
          </text>
        ))}
        {series.map((b) => {
          let y = top + plotH
          return PARTS.map(([part, color]) => {
            const v = partOf(b, part)
            if (v === 0) return null
            y -= h(v)
            return (
              <rect
                x={round(x(new Date(b.at).getTime()))}
                y={round(y)}
                width={round(barW)}
                height={round(Math.max(1, h(v)))}
                fill={color}
                data-series={part}
              >
                <title>{`${b.at}: ${v} ${part === 'other' ? 'healthy or abnormal' : part}`}</title>
              </rect>
            )
          })
        })}
        <g transform={`translate(${left},8)`}>
          {PARTS.map(([part, color], j) => (
            <>
              <rect x={j * 80 + 8} y="-2" width="10" height="10" fill={color}></rect>
              <text x={j * 80 + 22} y="7">
                {part === 'other' ? 'healthy or abnormal' : part}
              </text>
            </>
          ))}
        </g>
      </ChartSvg>
      <figcaption class="muted">
        {`Sessions per ${bucketName(props.intervalSeconds)} (UTC) by how they ended: crashed, errored, and the rest (healthy or abnormal).`}
      </figcaption>
    </figure>
  )
}

/** `5 minutes`, `hour`, `6 hours`, `day`, `week`. */
function bucketName(seconds: number): string {
  if (seconds % 604_800 === 0) return seconds === 604_800 ? 'week' : `${seconds / 604_800} weeks`
  if (seconds % 86_400 === 0) return seconds === 86_400 ? 'day' : `${seconds / 86_400} days`
  if (seconds % 3600 === 0) return seconds === 3600 ? 'hour' : `${seconds / 3600} hours`
  return seconds === 60 ? 'minute' : `${Math.round(seconds / 60)} minutes`
}
