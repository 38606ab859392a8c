import type autocannon from 'autocannon'
import { runCpu } from './ingest-load'
import type { Figure } from './results'

/**
 * What one request costs in processor time: the server's against the no-op's, PostgreSQL's
 * against the naive server's, and both together. Steadier than rates on a shared machine.
 */
export function cpuFigures(
  tis: autocannon.Result,
  naive: autocannon.Result,
  noop: autocannon.Result,
): Figure[] {
  const t = runCpu(tis)
  const n = runCpu(naive)
  const figures: Figure[] = [
    {
      what: 'server processor µs per request, tis on PostgreSQL',
      value: t.server,
      unit: 'µs',
      baseline: 'no-op Hono handler',
      baselineValue: runCpu(noop).server,
      note: 'the tis server includes its in-process projection',
    },
  ]
  if (t.postgres !== null && n.postgres !== null) {
    figures.push(
      {
        what: 'PostgreSQL processor µs per request, tis',
        value: t.postgres,
        unit: 'µs',
        baseline: 'naive INSERT per request',
        baselineValue: n.postgres,
        note: 'tis: the append, the projection and the rate-limit counters',
      },
      {
        what: 'server + PostgreSQL processor µs per request, tis',
        value: t.server + t.postgres,
        unit: 'µs',
        baseline: 'naive INSERT per request',
        baselineValue: n.server + n.postgres,
      },
    )
  }
  return figures
}
