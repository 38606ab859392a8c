import { html } from 'hono/html'
import { formatMs } from './format'
import type { Html } from './layout'
import type { SpanJson, TransactionJson } from './types'

const round = (n: number) => Math.round(n * 10) / 10

/** Counts of `times` in `buckets` equal slices of [`since`, `until`). */
export function bucketize(
  times: readonly string[],
  since: Date,
  until: Date,
  buckets: number,
): number[] {
  const counts = new Array<number>(buckets).fill(0)
  const span = until.getTime() - since.getTime()
  for (const t of times) {
    const k = Math.floor(((new Date(t).getTime() - since.getTime()) / span) * buckets)
    if (k >= 0 && k < buckets) counts[k] = (counts[k] ?? 0) + 1
  }
  return counts
}

/** A small bar sparkline; the label states what it shows for screen readers. */
export function sparkline(values: readonly number[], label: string): Html {
  const width = 96
  const height = 24
  const max = Math.max(1, ...values)
  const step = width / Math.max(1, values.length)
  return html`<svg class="chart" role="img" aria-label="${label}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${values.map(
    (v, i) => {
      const h = v === 0 ? 1 : Math.max(2, round((v / max) * height))
      return html`<rect x="${round(i * step)}" y="${round(height - h)}" width="${round(step - 1)}" height="${h}" fill="${v ? '#a40e26' : '#d0d7de'}"></rect>`
    },
  )}</svg>`
}

/** Horizontal bars of p50/p95/p99 per transaction (the slowest p95 sets the scale). */
export function latencyChart(rows: readonly TransactionJson[]): Html {
  const shown = rows.filter((r) => r.p99_ms !== null).slice(0, 10)
  if (shown.length === 0) return html``
  const max = Math.max(...shown.map((r) => r.p99_ms ?? 0), 1)
  const labelWidth = 220
  const barWidth = 460
  const rowHeight = 34
  const height = shown.length * rowHeight + 24
  const series = [
    ['p50', 'p50_ms', '#0a53be'],
    ['p95', 'p95_ms', '#8250df'],
    ['p99', 'p99_ms', '#a40e26'],
  ] as const
  return html`<figure><svg class="chart" role="img" aria-labelledby="latency-title" width="${labelWidth + barWidth + 80}" height="${height}" viewBox="0 0 ${labelWidth + barWidth + 80} ${height}">
<title id="latency-title">Latency per transaction: p50, p95 and p99 in milliseconds</title>${shown.map(
    (r, i) => {
      const y = i * rowHeight
      return html`<text x="0" y="${y + 16}">${r.name.length > 32 ? `${r.name.slice(0, 31)}…` : r.name}</text>${series.map(
        ([, key, color], j) => {
          const w = round(((r[key] ?? 0) / max) * barWidth)
          return html`<rect x="${labelWidth}" y="${y + 4 + j * 9}" width="${Math.max(1, w)}" height="8" fill="${color}"><title>${key.replace('_ms', '')} ${formatMs(r[key])}</title></rect>`
        },
      )}<text x="${labelWidth + barWidth + 6}" y="${y + 16}">${formatMs(r.p95_ms)}</text>`
    },
  )}
<g transform="translate(${labelWidth},${height - 8})">${series.map(
    ([name, , color], j) =>
      html`<rect x="${j * 70}" y="-9" width="10" height="10" fill="${color}"></rect><text x="${j * 70 + 14}" y="0">${name}</text>`,
  )}</g></svg><figcaption class="muted">Bars: p50, p95 and p99 of each transaction; the number is its p95.</figcaption></figure>`
}

/** A trace waterfall: one row per span, indented by depth, bars on the trace's time axis. */
export function waterfall(spans: readonly SpanJson[], startedAt: string, durationMs: number): Html {
  const start = new Date(startedAt).getTime()
  const total = Math.max(1, durationMs)
  const labelWidth = 300
  const barWidth = 520
  const rowHeight = 22
  const height = spans.length * rowHeight + 4
  return html`<svg class="chart" role="img" aria-label="Trace waterfall of ${spans.length} spans; the table below lists them" width="${labelWidth + barWidth + 90}" height="${height}" viewBox="0 0 ${labelWidth + barWidth + 90} ${height}">${spans.map(
    (s, i) => {
      const offset = new Date(s.started_at).getTime() - start
      const x = labelWidth + round((offset / total) * barWidth)
      const w = Math.max(2, round(((s.duration_ms ?? 0) / total) * barWidth))
      const y = i * rowHeight
      const indent = (s.depth ?? 0) * 12
      return html`<text x="${indent}" y="${y + 15}">${s.name.length > 36 ? `${s.name.slice(0, 35)}…` : s.name}</text>
<rect x="${x}" y="${y + 4}" width="${w}" height="14" rx="2" fill="${s.depth ? '#8250df' : '#0a53be'}"><title>${s.name}: +${formatMs(offset)}, ${formatMs(s.duration_ms)}</title></rect>
<text x="${Math.min(x + w + 4, labelWidth + barWidth + 4)}" y="${y + 15}">${formatMs(s.duration_ms)}</text>`
    },
  )}</svg>`
}
