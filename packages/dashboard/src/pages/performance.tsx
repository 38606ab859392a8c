/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type {
  StoredEvent as EventJson,
  LatencyBucket as LatencyBucketJson,
  ShownSpan as SpanJson,
  TraceList,
  Transaction as TransactionJson,
} from '@tis/schema'
import { LatencyChart, Waterfall } from '../charts'
import type { DashboardApp, Deps } from '../context'
import { ok } from '../engine-client'
import { formatMs, formatPercent, relativeTime } from '../format'
import { queryString, Time } from '../layout'
import { loadProject, renderPage } from '../render'
import { EventTable } from './event-table'

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

const num = { class: 'num' } as const

/**
 * `GET /projects/:id/performance` (transactions, their latency over the last 24 hours — of one
 * transaction with `?name=` — and recent traces) and one trace.
 */
export function registerPerformance(app: DashboardApp, deps: Deps): void {
  app.get('/projects/:id/performance', async (c) => {
    const session = c.get('session')
    const project = await loadProject(c, deps)
    const params = { id: project.id }
    const name = c.req.query('name') || undefined
    const reads = deps.engine.reads
    const [tx, traces, latency] = await Promise.all([
      session.call(reads.listTransactions, { params, query: { limit: '50' } }),
      session.call(reads.listTraces, { params, query: { limit: '20' } }),
      session.call(reads.getTransactionLatency, { params, query: { name } }),
    ])
    const { transactions } = ok<{ transactions: TransactionJson[] }>(tx)
    const roots = ok<TraceList>(traces).traces
    const series = ok<{ buckets: LatencyBucketJson[]; interval_seconds: number }>(latency)
    const now = deps.now()
    const path = `${deps.base}/projects/${project.id}/performance`
    const minutes = Math.round(series.interval_seconds / 60)
    return renderPage(c, deps, {
      title: `Performance · ${project.name}`,
      project: { id: project.id, name: project.name, tab: 'performance' },
      body: (
        <>
          <h1>Performance</h1>
          <h2 id="latency">{name ? `Latency of ${name}` : 'Latency of all transactions'}</h2>
          <p class="muted">
            {`The last 24 hours in ${minutes}-minute buckets. `}
            {name ? (
              <a href={`${path}#latency`}>Show all transactions</a>
            ) : (
              'Pick a transaction below to chart it alone.'
            )}
          </p>
          <LatencyChart
            buckets={series.buckets}
            title={`${name ? `Latency of ${name}` : 'Latency of all transactions'}: p50 and p95 in milliseconds over the last 24 hours`}
          />
          <h2>Transactions (last 24 hours)</h2>
          {transactions.length ? (
            <table>
              <caption class="skip">Transactions, busiest first</caption>
              <thead>
                <tr>
                  <th scope="col">Transaction</th>
                  <th scope="col" {...num}>
                    Count
                  </th>
                  <th scope="col" {...num}>
                    Error rate
                  </th>
                  <th scope="col" {...num}>
                    p50
                  </th>
                  <th scope="col" {...num}>
                    p95
                  </th>
                  <th scope="col" {...num}>
                    p99
                  </th>
                </tr>
              </thead>
              <tbody>
                {transactions.map((t) => (
                  <tr>
                    <td>
                      <a
                        href={`${path}${queryString({ name: t.name })}#latency`}
                        aria-current={t.name === name ? 'true' : undefined}
                      >
                        {t.name}
                      </a>
                    </td>
                    <td {...num}>{t.count}</td>
                    <td {...num}>{formatPercent(t.error_rate)}</td>
                    <td {...num}>{formatMs(t.p50_ms)}</td>
                    <td {...num}>{formatMs(t.p95_ms)}</td>
                    <td {...num}>{formatMs(t.p99_ms)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="empty">
              No transactions in the last 24 hours. Send <code>transaction</code> events with a{' '}
              <code>duration_ms</code> (the SDK's <code>captureTransaction</code>, or the Express
              middleware).
            </p>
          )}
          <h2>Recent traces</h2>
          {roots.length ? (
            <table>
              <caption class="skip">Recent traces</caption>
              <thead>
                <tr>
                  <th scope="col">Root span</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Started</th>
                  <th scope="col" {...num}>
                    Duration
                  </th>
                </tr>
              </thead>
              <tbody>
                {roots.map((s) => (
                  <tr>
                    <td>
                      <a href={`${deps.base}/projects/${project.id}/traces/${s.trace_id}`}>
                        {s.name}
                      </a>
                    </td>
                    <td>{s.kind}</td>
                    <td>
                      <Time iso={s.started_at} text={relativeTime(s.started_at, now)} />
                    </td>
                    <td {...num}>{formatMs(s.duration_ms)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="muted">No traces yet.</p>
          )}
        </>
      ),
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
      body: (
        <>
          <h1>
            Trace <code>{trace.trace_id}</code>
          </h1>
          <p>
            {trace.root && (
              <>
                Root <strong>{trace.root.name}</strong> ·{' '}
              </>
            )}
            {`${trace.span_count} spans · ${formatMs(trace.duration_ms ?? total)}`}
            {trace.truncated ? ' · truncated to the first 5,000 spans' : ''}
          </p>
          {trace.spans.length > 0 && (
            <Waterfall spans={trace.spans} startedAt={trace.started_at} durationMs={total} />
          )}
          <h2>Spans</h2>
          {trace.spans.length ? (
            <table>
              <caption class="skip">Spans in start order</caption>
              <thead>
                <tr>
                  <th scope="col">Span</th>
                  <th scope="col">Kind</th>
                  <th scope="col" {...num}>
                    Depth
                  </th>
                  <th scope="col" {...num}>
                    Start
                  </th>
                  <th scope="col" {...num}>
                    Duration
                  </th>
                </tr>
              </thead>
              <tbody>
                {trace.spans.map((s) => (
                  <tr>
                    <td>{s.name}</td>
                    <td>{s.kind}</td>
                    <td {...num}>{s.depth ?? 0}</td>
                    <td
                      {...num}
                    >{`+${formatMs(new Date(s.started_at ?? 0).getTime() - start)}`}</td>
                    <td {...num}>{formatMs(s.duration_ms)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="muted">This trace has no spans, only events.</p>
          )}
          <h2>Events in this trace</h2>
          <EventTable
            deps={deps}
            projectId={project.id}
            events={trace.events}
            caption="Events of this trace"
          />
        </>
      ),
    })
  })
}
