import { html } from 'hono/html'
import { latencyChart, waterfall } from '../charts'
import type { DashboardApp, Deps } from '../context'
import { ok } from '../engine-client'
import { formatMs, formatPercent, relativeTime } from '../format'
import { time } from '../layout'
import { loadProject, renderPage } from '../render'
import type { EventJson, Page, SpanJson, TransactionJson } from '../types'
import { eventTable } from './event-table'

interface TraceJson {
  trace_id: string
  root: SpanJson | null
  duration_ms: number | null
  started_at: string
  ended_at: string
  span_count: number
  truncated: boolean
  spans: SpanJson[]
  events: EventJson[]
}

/** `GET /projects/:id/performance` (transactions, latency chart, recent traces) and one trace. */
export function registerPerformance(app: DashboardApp, deps: Deps): void {
  app.get('/projects/:id/performance', async (c) => {
    const session = c.get('session')
    const project = await loadProject(c, deps)
    const params = { id: project.id }
    const [tx, traces] = await Promise.all([
      session.call(deps.engine.reads.listTransactions, { params, query: { limit: '50' } }),
      session.call(deps.engine.reads.listTraces, { params, query: { limit: '20' } }),
    ])
    const { transactions } = ok<{ transactions: TransactionJson[] }>(tx)
    const roots = ok<Page<'traces', SpanJson>>(traces).traces
    const now = deps.now()
    return renderPage(c, deps, {
      title: `Performance · ${project.name}`,
      project: { id: project.id, name: project.name, tab: 'performance' },
      body: html`<h1>Performance</h1><h2>Transactions (last 24 hours)</h2>${
        transactions.length
          ? html`${latencyChart(transactions)}<table><caption class="skip">Transactions, busiest first</caption><thead><tr><th scope="col">Transaction</th>
<th scope="col" class="num">Count</th><th scope="col" class="num">Error rate</th><th scope="col" class="num">p50</th><th scope="col" class="num">p95</th><th scope="col" class="num">p99</th></tr></thead>
<tbody>${transactions.map(
              (
                t,
              ) => html`<tr><td>${t.name}</td><td class="num">${t.count}</td><td class="num">${formatPercent(t.error_rate)}</td>
<td class="num">${formatMs(t.p50_ms)}</td><td class="num">${formatMs(t.p95_ms)}</td><td class="num">${formatMs(t.p99_ms)}</td></tr>`,
            )}</tbody></table>`
          : html`<p class="empty">No transactions in the last 24 hours. Send <code>transaction</code> events with a
<code>duration_ms</code> (the SDK's <code>captureTransaction</code>, or the Express middleware).</p>`
      }<h2>Recent traces</h2>${
        roots.length
          ? html`<table><caption class="skip">Recent traces</caption><thead><tr><th scope="col">Root span</th><th scope="col">Kind</th><th scope="col">Started</th><th scope="col" class="num">Duration</th></tr></thead>
<tbody>${roots.map(
              (
                s,
              ) => html`<tr><td><a href="${deps.base}/projects/${project.id}/traces/${s.trace_id}">${s.name}</a></td><td>${s.kind}</td>
<td>${time(s.started_at, relativeTime(s.started_at, now))}</td><td class="num">${formatMs(s.duration_ms)}</td></tr>`,
            )}</tbody></table>`
          : html`<p class="muted">No traces yet.</p>`
      }`,
    })
  })
  app.get('/projects/:id/traces/:trace_id', async (c) => {
    const project = await loadProject(c, deps)
    const trace = ok<TraceJson>(
      await c.get('session').call(deps.engine.reads.getTrace, {
        params: { id: project.id, trace_id: c.req.param('trace_id') },
      }),
    )
    const total = new Date(trace.ended_at).getTime() - new Date(trace.started_at).getTime()
    const start = new Date(trace.started_at).getTime()
    return renderPage(c, deps, {
      title: `Trace ${trace.trace_id.slice(0, 12)} · ${project.name}`,
      project: { id: project.id, name: project.name, tab: 'performance' },
      body: html`<h1>Trace <code>${trace.trace_id}</code></h1>
<p>${trace.root ? html`Root <strong>${trace.root.name}</strong> · ` : ''}${trace.span_count} spans · ${formatMs(trace.duration_ms ?? total)}${
        trace.truncated ? ' · truncated to the first 5,000 spans' : ''
      }</p>${trace.spans.length ? waterfall(trace.spans, trace.started_at, total) : ''}
<h2>Spans</h2>${
        trace.spans.length
          ? html`<table><caption class="skip">Spans in start order</caption><thead><tr><th scope="col">Span</th><th scope="col">Kind</th><th scope="col" class="num">Depth</th><th scope="col" class="num">Start</th><th scope="col" class="num">Duration</th></tr></thead>
<tbody>${trace.spans.map(
              (
                s,
              ) => html`<tr><td>${s.name}</td><td>${s.kind}</td><td class="num">${s.depth ?? 0}</td>
<td class="num">+${formatMs(new Date(s.started_at).getTime() - start)}</td><td class="num">${formatMs(s.duration_ms)}</td></tr>`,
            )}</tbody></table>`
          : html`<p class="muted">This trace has no spans, only events.</p>`
      }<h2>Events in this trace</h2>${eventTable(deps, project.id, trace.events, 'Events of this trace')}`,
    })
  })
}
