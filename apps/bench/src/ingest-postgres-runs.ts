import { startTestPostgres } from '@tis/test-utils/postgres'
import type autocannon from 'autocannon'
import postgres from 'postgres'
import { isNamed, parentOf, withChildren } from './cpu'
import { measureBatches } from './ingest-batches'
import { cpuFigures } from './ingest-cpu-figures'
import { measureLag } from './ingest-lag'
import { FINGERPRINTS } from './ingest-load'
import { type IngestReport, latency } from './ingest-report'
import { measureNaive, measureTis, type TisRun } from './ingest-servers'
import type { Figure } from './results'

/** Rounds of the alert comparison's pairs (the other plans run two). */
const ALERT_ROUNDS = Number(process.env['BENCH_ALERT_ROUNDS'] ?? 5)

/**
 * The runs on a durable PostgreSQL (fsync, synchronous commit): the naive server, tis with one
 * fingerprint against 5,000 and rate limiting on against off (alternating, twice each), batches,
 * and the projection lag at half the peak. `baseline` is the no-op's run.
 */
export async function measurePostgres(
  baseline: autocannon.Result,
  report: IngestReport,
): Promise<Figure[]> {
  const { rows, notes, summary } = report
  const base = baseline.requests.average
  const figures: Figure[] = []
  // Full durability (fsync, synchronous commit): a 201 must mean committed to disk.
  const pg = await startTestPostgres({ durable: true })
  try {
    const sql = postgres(pg.url, { max: 1 })
    const countEvents = async (projectId: string) => {
      const [r] = await sql<
        Array<{ n: number }>
      >`select count(*)::int as n from events where project_id = ${projectId}`
      return r?.n ?? 0
    }
    // PostgreSQL's processes on this machine: the postmaster (the parent of this connection's
    // backend) and its children. None for a server elsewhere (TEST_DATABASE_URL).
    const [backend] = await sql<Array<{ pid: number }>>`select pg_backend_pid() as pid`
    const postmaster = backend && isNamed(backend.pid, 'postgres') ? parentOf(backend.pid) : null
    const postgresPids = postmaster ? () => withChildren(postmaster) : null
    const naivePg = await measureNaive(
      'naive INSERT per request, PostgreSQL',
      { DATABASE_URL: pg.url },
      base,
      postgresPids,
    )
    rows.push(naivePg.row)
    // One fingerprint (an error storm: one hot issue) against 5,000, and rate limiting off
    // (nothing counted) against on (every request counted in the shared PostgreSQL counters,
    // under a cap far above the load). The runs alternate so drift on a shared machine hits
    // each alike.
    const plans = [
      ['1 fingerprint', {}, { groups: 1 }],
      [`${FINGERPRINTS.toLocaleString('en-US')} fingerprints`, {}, { groups: FINGERPRINTS }],
      ['1 fingerprint, rate limiting off', { SERVICE_PUBLIC_API_RATE_LIMIT_STORE: 'none' }, {}],
      // Ten alert rules of every trigger on a webhook, against the runs above.
      ['1 fingerprint, ten alert rules', {}, { alertRules: true }],
      [
        `${FINGERPRINTS.toLocaleString('en-US')} fingerprints, ten alert rules`,
        {},
        { groups: FINGERPRINTS, alertRules: true },
      ],
    ] as const
    const runs: Record<string, TisRun[]> = {}
    // Two rounds of every plan; the alert comparison (within 5%) gets three more pairs,
    // since single 10 s runs of one plan varied by ±25% on a shared 2-core machine.
    const alertPairs = new Set<string>([plans[0][0], plans[1][0], plans[3][0], plans[4][0]])
    for (let round = 1; round <= ALERT_ROUNDS; round++) {
      for (const [plan, env, options] of plans) {
        if (round > 2 && !alertPairs.has(plan)) continue
        const run = await measureTis(
          `tis on PostgreSQL, ${plan} #${round}`,
          { DATABASE_URL: pg.url, ...env },
          countEvents,
          base,
          options,
          postgresPids,
        )
        rows.push(run.row)
        notes.push(
          `PostgreSQL (${plan} #${round}): ${run.lost} acknowledged events missing from the store; projection caught up ${Math.round(run.catchUpMs)} ms after the load`,
        )
        runs[plan] = [...(runs[plan] ?? []), run]
      }
    }
    const total = (plan: string) => (runs[plan] ?? []).reduce((n, r) => n + r.row['req/s'], 0)
    // The mean of a plan's runs, so that plans measured a different number of times compare.
    const mean = (plan: string) => Math.round(total(plan) / Math.max(1, runs[plan]?.length ?? 0))
    const [one, many, off, oneRules, manyRules] = plans.map(([plan]) => mean(plan))
    const catchUp = (plan: string) => (runs[plan] ?? []).reduce((n, r) => n + r.catchUpMs, 0)
    const best = [...(runs[plans[0][0]] ?? [])].sort(
      (a, b) => b.result.requests.average - a.result.requests.average,
    )[0]!
    figures.push(
      {
        what: 'ingest events/s, tis on PostgreSQL',
        value: Math.round(best.result.requests.average),
        unit: 'req/s',
        baseline: 'no-op Hono handler',
        baselineValue: Math.round(base),
        note: latency(best.result),
      },
      {
        what: 'ingest events/s, tis on PostgreSQL',
        value: Math.round(best.result.requests.average),
        unit: 'req/s',
        baseline: 'naive INSERT per request, PostgreSQL',
        baselineValue: Math.round(naivePg.result.requests.average),
        note: `naive: ${latency(naivePg.result)}`,
      },
      ...cpuFigures(best.result, naivePg.result, baseline),
      {
        what: 'ingest p99, tis on PostgreSQL',
        value: best.result.latency.p99,
        unit: 'ms',
        baseline: 'no-op Hono handler p99',
        baselineValue: baseline.latency.p99,
      },
      {
        what: `ingest, ${FINGERPRINTS.toLocaleString('en-US')} fingerprints vs 1, PostgreSQL`,
        value: many ?? 0,
        unit: 'req/s (mean of the runs)',
        baseline: '1 fingerprint',
        baselineValue: one ?? 0,
      },
      {
        what: 'rate limiting on (shared counters) vs off, PostgreSQL',
        value: one ?? 0,
        unit: 'req/s (mean of the runs)',
        baseline: 'rate limiting off',
        baselineValue: off ?? 0,
      },
      {
        what: 'ingest with ten alert rules vs none, 1 fingerprint, PostgreSQL',
        value: oneRules ?? 0,
        unit: 'req/s (mean of the runs)',
        baseline: 'no rules',
        baselineValue: one ?? 0,
      },
      {
        what: `ingest with ten alert rules vs none, ${FINGERPRINTS.toLocaleString('en-US')} fingerprints, PostgreSQL`,
        value: manyRules ?? 0,
        unit: 'req/s (mean of the runs)',
        baseline: 'no rules',
        baselineValue: many ?? 0,
        note: `projection catch-up after the load: ${Math.round(catchUp(plans[4][0]))} ms with rules, ${Math.round(catchUp(plans[1][0]))} ms without (all runs)`,
      },
      {
        what: 'server peak RSS, tis on PostgreSQL under load',
        value: Math.max(
          ...Object.values(runs)
            .flat()
            .map((r) => r.rssMiB ?? 0),
        ),
        unit: 'MiB',
      },
    )
    figures.push(...(await measureBatches(pg.url, countEvents, notes, rows)))
    figures.push(...(await measureLag(pg.url, best.result.requests.average / 2, summary)))
    summary.push(
      `rate limiting on/off on PostgreSQL (mean of alternating runs): ${one} / ${off} req/s = ${(((one ?? 0) / (off ?? 1)) * 100).toFixed(1)}%`,
      `${FINGERPRINTS} fingerprints / 1 fingerprint: ${many} / ${one} req/s = ${(((many ?? 0) / (one ?? 1)) * 100).toFixed(1)}%`,
      `ten alert rules / none (mean of ${ALERT_ROUNDS} alternating pairs): 1 fingerprint ${oneRules} / ${one} req/s = ${(((oneRules ?? 0) / (one ?? 1)) * 100).toFixed(1)}%, ${FINGERPRINTS} fingerprints ${manyRules} / ${many} req/s = ${(((manyRules ?? 0) / (many ?? 1)) * 100).toFixed(1)}%`,
    )
    await sql.end()
  } finally {
    await pg.stop()
  }
  return figures
}
