import { startTestPostgres } from '@tis/test-utils/postgres'
import type autocannon from 'autocannon'
import postgres from 'postgres'
import { envelopeBodies, envelopePath, nativeBodies, sentryHeaders } from './envelope-bodies'
import { load, meters } from './ingest-load'
import { type IngestReport, latency, row } from './ingest-report'
import { ADMIN_TOKEN, SERVER_MAIN, serverEnv } from './ingest-servers'
import { createProjectWithKey } from './management-client'
import { startNode } from './processes'
import { caughtUp } from './projection-lag'
import type { Figure } from './results'

// Issue 22: "ingest throughput of an envelope with one error event ≥ 0.8× native single-event
// ingest". One tis server on a durable PostgreSQL, loaded in alternating pairs with the bench's
// native event (`POST /api/v1/ingest_events`) and a Sentry envelope carrying the same error as
// @sentry/node sends it (`POST /api/<number>/envelope/`), each request with a fresh event id;
// the means of the pairs compared, so drift on a shared machine hits both sides alike.

/** Alternating pairs of the comparison. */
export const ENVELOPE_ROUNDS = Number(process.env['BENCH_ENVELOPE_ROUNDS'] ?? 3)
/** The bar: envelope req/s at least this share of native req/s. */
export const ENVELOPE_BAR = 0.8

/** What the comparison measured: req/s per side per pair and the ratio of the means. */
export interface EnvelopeComparison {
  readonly native: readonly number[]
  readonly envelope: readonly number[]
  readonly ratio: number
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)

/**
 * Runs the comparison on a durable PostgreSQL of its own (or `TEST_DATABASE_URL`); adds its rows,
 * a note (acknowledged events missing from the store) and summary lines to `report`, and returns
 * its figures. `base` is the no-op's req/s, for the rows' "vs no-op" (optional).
 */
export async function measureEnvelope(
  report: IngestReport,
  base?: number,
): Promise<{ figures: Figure[]; comparison: EnvelopeComparison }> {
  const pg = await startTestPostgres({ durable: true })
  const sql = postgres(pg.url, { max: 1 })
  const server = await startNode([SERVER_MAIN], { ...serverEnv, DATABASE_URL: pg.url })
  try {
    const project = await createProjectWithKey(server.url, ADMIN_TOKEN, 'envelope bench')
    if (!project.dsn) throw new Error('the project JSON has no dsn')
    const meter = () => meters(server.child.pid, null)
    const sides = {
      native: () =>
        load(
          server.url,
          { authorization: `Bearer ${project.token}` },
          { nextBody: nativeBodies(), meters: meter() },
        ),
      envelope: () =>
        load(server.url, sentryHeaders(project.dsn as string), {
          path: envelopePath(project.dsn as string),
          nextBody: envelopeBodies(project.dsn as string),
          meters: meter(),
        }),
    }
    const runs = { native: [] as autocannon.Result[], envelope: [] as autocannon.Result[] }
    for (let round = 1; round <= ENVELOPE_ROUNDS; round++) {
      // The side that goes first alternates too, so neither always follows the other's backlog.
      const order =
        round % 2 === 1 ? (['native', 'envelope'] as const) : (['envelope', 'native'] as const)
      for (const side of order) {
        const result = await sides[side]()
        runs[side].push(result)
        const name = side === 'native' ? 'native single event' : 'Sentry envelope, one event'
        report.rows.push(row(`tis on PostgreSQL, ${name} #${round}`, result, base))
      }
    }
    await caughtUp(server.url)
    const [stored] = await sql<
      Array<{ n: number }>
    >`select count(*)::int as n from events where project_id = ${project.projectId}`
    const acknowledged = [...runs.native, ...runs.envelope].reduce((n, r) => n + r['2xx'], 0)
    const refused = [...runs.native, ...runs.envelope].reduce((n, r) => n + r.non2xx, 0)
    // The warm-ups' 2xx are stored too: the stored count may exceed the measured runs' sum.
    report.notes.push(
      `PostgreSQL (native vs envelope): ${Math.max(0, acknowledged - (stored?.n ?? 0))} acknowledged events missing from the store; ${refused} non-2xx answers`,
    )
    const perSide = (side: 'native' | 'envelope') =>
      runs[side].map((r) => Math.round(r.requests.average))
    const comparison = {
      native: perSide('native'),
      envelope: perSide('envelope'),
      ratio: mean(perSide('envelope')) / Math.max(1, mean(perSide('native'))),
    }
    report.summary.push(...summaryLines(comparison))
    const last = (side: 'native' | 'envelope') => runs[side].at(-1) as autocannon.Result
    const figures: Figure[] = [
      {
        what: 'Sentry envelope (one error event) vs native single event, PostgreSQL',
        value: Math.round(mean(comparison.envelope)),
        unit: `req/s (mean of ${ENVELOPE_ROUNDS} alternating pairs)`,
        baseline: 'native single event',
        baselineValue: Math.round(mean(comparison.native)),
        note: `bar ≥ ${ENVELOPE_BAR}×: ${comparison.ratio >= ENVELOPE_BAR ? 'pass' : 'FAIL'}; last pair envelope ${latency(last('envelope'))}, native ${latency(last('native'))}`,
      },
    ]
    return { figures, comparison }
  } finally {
    await server.stop()
    await sql.end()
    await pg.stop()
  }
}

/** The summary lines: req/s of each side per pair, the ratio of the means, pass or fail. */
export function summaryLines(c: EnvelopeComparison): string[] {
  return [
    `Sentry envelope / native single event on PostgreSQL (${c.native.length} alternating pairs, req/s): native ${c.native.join(', ')}; envelope ${c.envelope.join(', ')}`,
    `  ratio of means ${Math.round(mean(c.envelope))} / ${Math.round(mean(c.native))} = ${c.ratio.toFixed(2)}× — ${c.ratio >= ENVELOPE_BAR ? 'PASS' : 'FAIL'} (bar ≥ ${ENVELOPE_BAR}×)`,
  ]
}
