/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { LatencyBucket as LatencyBucketJson, ShownSpan as SpanJson } from '@tis/schema'
import type { Child } from 'hono/jsx'
import { formatMs } from './format'
import type { Html } from './layout'

/** A coordinate to one decimal: shorter SVG, no visible difference. */
export const round = (n: number) => Math.round(n * 10) / 10

/**
 * A chart's `<svg>` of this size, labelled for screen readers by its `<title>` and `<desc>`
 * (ids `${id}-title` and `${id}-desc`, so each chart of a page needs its own `id`).
 */
export function ChartSvg(props: {
  id: string
  width: number
  height: number
  title: string
  desc: string
  children?: Child
}): Html {
  const { id, width, height } = props
  return (
    <svg
      class="chart"
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
    >
      <title id={`${id}-title`}>{props.title}</title>
      <desc id={`${id}-desc`}>{props.desc}</desc>
      {props.children}
    </svg>
  )
}

/** A small bar sparkline; the label states what it shows for screen readers. */
export function Sparkline({ values, label }: { values: readonly number[]; label: string }): Html {
  const width = 96
  const height = 24
  const max = Math.max(1, ...values)
  const step = width / Math.max(1, values.length)
  return (
    <svg
      class="chart"
      role="img"
      aria-label={label}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
    >
      {values.map((v, i) => {
        const h = v === 0 ? 1 : Math.max(2, round((v / max) * height))
        return (
          <rect
            x={round(i * step)}
            y={round(height - h)}
            width={round(step - 1)}
            height={h}
            fill={v ? '#a40e26' : '#d0d7de'}
          ></rect>
        )
      })}
    </svg>
  )
}

const SERIES = [
  ['p50', 'p50_ms', '#0a53be'],
  ['p95', 'p95_ms', '#8250df'],
] as const

/** `12:00` of an ISO time, in UTC. */
export const clock = (iso: string) => `${iso.slice(11, 16)}`

/** The points of one series, split where a bucket has no timed transactions. */
function segments(
  buckets: readonly LatencyBucketJson[],
  key: 'p50_ms' | 'p95_ms',
  x: (i: number) => number,
  y: (v: number) => number,
): string[][] {
  const out: string[][] = []
  let current: string[] = []
  buckets.forEach((b, i) => {
    const v = b[key]
    if (v === null) {
      if (current.length) out.push(current)
      current = []
      return
    }
    current.push(`${round(x(i))},${round(y(v))}`)
  })
  if (current.length) out.push(current)
  return out
}

/**
 * p50 and p95 over time (one point per bucket, gaps where nothing was timed), with its time and
 * millisecond axes; the caption states the peak for screen readers.
 */
export function LatencyChart(props: {
  buckets: readonly LatencyBucketJson[]
  title: string
}): Html {
  const { buckets, title } = props
  const timed = buckets.filter((b) => b.p95_ms !== null)
  if (timed.length === 0) return <p class="muted">No timed transactions in this window.</p>
  const [width, height] = [760, 220]
  const [left, right, top, bottom] = [64, 16, 30, 30]
  const max = Math.max(...timed.map((b) => b.p95_ms ?? 0), 1)
  const plotW = width - left - right
  const plotH = height - top - bottom
  const x = (i: number) =>
    left + (buckets.length <= 1 ? plotW / 2 : (i / (buckets.length - 1)) * plotW)
  const y = (v: number) => top + plotH - (v / max) * plotH
  const peak = timed.reduce((a, b) => ((b.p95_ms ?? 0) > (a.p95_ms ?? 0) ? b : a))
  const count = buckets.reduce((n, b) => n + b.count, 0)
  const ticks = [0, max / 2, max]
  const labels = [0, Math.floor((buckets.length - 1) / 2), buckets.length - 1]
  return (
    <figure>
      <ChartSvg
        id="latency"
        width={width}
        height={height}
        title={title}
        desc={`${count} transactions; highest p95 ${formatMs(peak.p95_ms)} in the bucket starting ${peak.start}.`}
      >
        {ticks.map((t) => (
          <>
            <line
              x1={left}
              x2={width - right}
              y1={round(y(t))}
              y2={round(y(t))}
              stroke="#d0d7de"
            ></line>
            <text x={left - 6} y={round(y(t)) + 4} text-anchor="end">
              {t === 0 ? '0 ms' : formatMs(t)}
            </text>
          </>
        ))}
        {labels.map((i) => (
          <text x={round(x(i))} y={height - 10} text-anchor="middle">
            {clock(buckets[i]?.start ?? '')}
          </text>
        ))}
        {SERIES.map(([name, key, color]) =>
          segments(buckets, key, x, y).map((points) =>
            points.length === 1 ? (
              <circle
                cx={points[0]?.split(',')[0]}
                cy={points[0]?.split(',')[1]}
                r="3"
                fill={color}
                data-series={name}
              ></circle>
            ) : (
              <polyline
                points={points.join(' ')}
                fill="none"
                stroke={color}
                stroke-width="2"
                data-series={name}
              ></polyline>
            ),
          ),
        )}
        <g transform={`translate(${left},8)`}>
          {SERIES.map(([name, , color], j) => (
            <>
              <rect x={j * 60 + 8} y="-2" width="10" height="10" fill={color}></rect>
              <text x={j * 60 + 22} y="7">
                {name}
              </text>
            </>
          ))}
        </g>
      </ChartSvg>
      <figcaption class="muted">
        p50 and p95 of each time bucket (UTC); gaps are buckets without timed transactions.
      </figcaption>
    </figure>
  )
}

/** A trace waterfall: one row per span, indented by depth, bars on the trace's time axis. */
export function Waterfall(props: {
  spans: readonly SpanJson[]
  startedAt: string
  durationMs: number
}): Html {
  const { spans, startedAt, durationMs } = props
  const start = new Date(startedAt).getTime()
  const total = Math.max(1, durationMs)
  const labelWidth = 300
  const barWidth = 520
  const rowHeight = 22
  const height = spans.length * rowHeight + 4
  const width = labelWidth + barWidth + 90
  return (
    <svg
      class="chart"
      role="img"
      aria-label={`Trace waterfall of ${spans.length} spans; the table below lists them`}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
    >
      {spans.map((s, i) => {
        const offset = new Date(s.started_at ?? 0).getTime() - start
        const x = labelWidth + round((offset / total) * barWidth)
        const w = Math.max(2, round(((s.duration_ms ?? 0) / total) * barWidth))
        const y = i * rowHeight
        const indent = (s.depth ?? 0) * 12
        return (
          <>
            <text x={indent} y={y + 15}>
              {(s.name ?? '').length > 36 ? `${(s.name ?? '').slice(0, 35)}…` : s.name}
            </text>
            <rect
              x={x}
              y={y + 4}
              width={w}
              height="14"
              rx="2"
              fill={s.depth ? '#8250df' : '#0a53be'}
            >
              <title>{`${s.name}: +${formatMs(offset)}, ${formatMs(s.duration_ms)}`}</title>
            </rect>
            <text x={Math.min(x + w + 4, labelWidth + barWidth + 4)} y={y + 15}>
              {formatMs(s.duration_ms)}
            </text>
          </>
        )
      })}
    </svg>
  )
}
