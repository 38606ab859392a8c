import { startTestPostgres } from '@tis/test-utils/postgres'
import type autocannon from 'autocannon'
import postgres from 'postgres'
import { isNamed, parentOf, withChildren } from './cpu'
import {
  envelopeBodies,
  envelopePath,
  nativeBodies,
  nativeTwinBodies,
  sentryHeaders,
} from './envelope-bodies'
import { load, meters } from './ingest-load'
import { type IngestReport, latency, row } from './ingest-report'
import { ADMIN_TOKEN, SERVER_MAIN, serverEnv } from './ingest-servers'
import { createProjectWithKey } from './management-client'
import { startNode } from './processes'
import { caughtUp } from './projection-lag'
import type { Figure } from './results'

// The target: "ingest throughput of an envelope with one error event ≥ 0.8× native single-event
// ingest". One tis server on a durable PostgreSQL, loaded in alternating rounds with the bench's
// native event (`POST /api/v1/ingest_events`) and a Sentry envelope carrying the same error as a
// Sentry SDK sends it (`POST /api/<number>/envelope/`): the bar, the protocol's cost. Two more
// sides show what a real SDK's richer event costs: the envelope @sentry/node sends for that error
// (frames, contexts, sdk) and its native twin (the same content sent natively), which tells the
// protocol's cost from the content's. Every request has a fresh event id. The means of the rounds
// compare, so drift on a shared machine hits every side alike.

/** Alternating rounds (each one run of every side) of the comparison. */
export const ENVELOPE_ROUNDS = Number(process.env['BENCH_ENVELOPE_ROUNDS'] ?? 3)
/** The bar: envelope req/s at least this share of native req/s. */
export const ENVELOPE_BAR = 0.8

/**
 * The sides: the bench's native event, the Sentry envelope of the same error, @sentry/node's rich
 * envelope of it and that envelope event's native twin.
 */
const SIDES = ['native', 'envelope', 'rich', 'twin'] as const
type Side = (typeof SIDES)[number]
const NAMES: Record<Side, string> = {
  native: 'native single event',
  envelope: 'Sentry envelope, one error event',
  rich: 'Sentry envelope, @sentry/node event with frames and contexts',
  twin: "native twin of @sentry/node's event",
}

/** What the comparison measured: req/s per side per round and the ratios of the means. */
export interface EnvelopeComparison {
  readonly native: readonly number[]
  readonly envelope: readonly number[]
  readonly rich: readonly number[]
  readonly twin: readonly number[]
  /** Envelope / native (the same error both ways): the bar's ratio. */
  readonly ratio: number
  /** Rich envelope / native: a real SDK's richer event against the bench's native event. */
  readonly richRatio: number
  /** Rich envelope / twin: what the protocol costs over the same rich content sent natively. */
  readonly protocolRatio: number
  /** Bytes of one request body of each side. */
  readonly bodyBytes: Readonly<Record<Side, number>>
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
    const dsn = project.dsn
    if (!dsn) throw new Error('the project JSON has no dsn')
    const bearer = { authorization: `Bearer ${project.token}` }
    const bodies: Record<Side, () => string> = {
      native: nativeBodies(),
      envelope: envelopeBodies(dsn, 'error'),
      rich: envelopeBodies(dsn, 'rich'),
      twin: nativeTwinBodies(),
    }
    // PostgreSQL's processes (the postmaster and its children), when it runs on this machine.
    const [backend] = await sql<Array<{ pid: number }>>`select pg_backend_pid() as pid`
    const postmaster = backend && isNamed(backend.pid, 'postgres') ? parentOf(backend.pid) : null
    const postgresPids = postmaster ? () => withChildren(postmaster) : null
    const run = (side: Side) => {
      const metered = { meters: meters(server.child.pid, postgresPids) }
      switch (side) {
        case 'native':
        case 'twin':
          return load(server.url, bearer, { nextBody: bodies[side], ...metered })
        case 'envelope':
        case 'rich':
          return load(server.url, sentryHeaders(dsn), {
            path: envelopePath(dsn),
            nextBody: bodies[side],
            ...metered,
          })
        default:
          return side satisfies never
      }
    }
    const runs: Record<Side, autocannon.Result[]> = { native: [], envelope: [], rich: [], twin: [] }
    for (let round = 1; round <= ENVELOPE_ROUNDS; round++) {
      // The side that goes first rotates too, so none always follows another's backlog.
      const order = SIDES.map((_, i) => SIDES[(i + round - 1) % SIDES.length] as Side)
      for (const side of order) {
        const result = await run(side)
        runs[side].push(result)
        report.rows.push(row(`tis on PostgreSQL, ${NAMES[side]} #${round}`, result, base))
      }
    }
    await caughtUp(server.url)
    const [stored] = await sql<
      Array<{ n: number }>
    >`select count(*)::int as n from events where project_id = ${project.projectId}`
    const all = Object.values(runs).flat()
    const acknowledged = all.reduce((n, r) => n + r['2xx'], 0)
    const refused = all.reduce((n, r) => n + r.non2xx, 0)
    // The warm-ups' 2xx are stored too: the stored count may exceed the measured runs' sum.
    report.notes.push(
      `PostgreSQL (native vs envelope): ${Math.max(0, acknowledged - (stored?.n ?? 0))} acknowledged events missing from the store; ${refused} non-2xx answers`,
    )
    const perSide = (side: Side) => runs[side].map((r) => Math.round(r.requests.average))
    const comparison: EnvelopeComparison = {
      native: perSide('native'),
      envelope: perSide('envelope'),
      rich: perSide('rich'),
      twin: perSide('twin'),
      ratio: mean(perSide('envelope')) / Math.max(1, mean(perSide('native'))),
      richRatio: mean(perSide('rich')) / Math.max(1, mean(perSide('native'))),
      protocolRatio: mean(perSide('rich')) / Math.max(1, mean(perSide('twin'))),
      bodyBytes: {
        native: Buffer.byteLength(bodies.native()),
        envelope: Buffer.byteLength(bodies.envelope()),
        rich: Buffer.byteLength(bodies.rich()),
        twin: Buffer.byteLength(bodies.twin()),
      },
    }
    report.summary.push(...summaryLines(comparison))
    return { figures: figuresOf(comparison, runs), comparison }
  } finally {
    await server.stop()
    await sql.end()
    await pg.stop()
  }
}

/** The saved figures: the envelope against native (the bar), the rich envelope against both. */
function figuresOf(c: EnvelopeComparison, runs: Record<Side, autocannon.Result[]>): Figure[] {
  const last = (side: Side) => latency(runs[side].at(-1) as autocannon.Result)
  const unit = `req/s (mean of ${ENVELOPE_ROUNDS} alternating rounds)`
  return [
    {
      what: 'Sentry envelope (one error event) vs native single event of the same error, PostgreSQL',
      value: Math.round(mean(c.envelope)),
      unit,
      baseline: 'native single event',
      baselineValue: Math.round(mean(c.native)),
      note: `bar ≥ ${ENVELOPE_BAR}×: ${c.ratio >= ENVELOPE_BAR ? 'pass' : 'FAIL'}; last round envelope ${last('envelope')}, native ${last('native')}`,
    },
    {
      what: "@sentry/node's envelope (frames, contexts, sdk) vs native single event, PostgreSQL",
      value: Math.round(mean(c.rich)),
      unit,
      baseline: 'native single event',
      baselineValue: Math.round(mean(c.native)),
      note: `last round @sentry/node envelope ${last('rich')}`,
    },
    {
      what: "@sentry/node's envelope vs its event's native twin (same content), PostgreSQL",
      value: Math.round(mean(c.rich)),
      unit,
      baseline: 'native twin (same content)',
      baselineValue: Math.round(mean(c.twin)),
      note: `last round twin ${last('twin')}`,
    },
  ]
}

/** The summary lines: req/s of each side per round, the ratios of the means, pass or fail. */
export function summaryLines(c: EnvelopeComparison): string[] {
  const m = (xs: readonly number[]) => Math.round(mean(xs))
  return [
    `Sentry envelopes vs native single events on PostgreSQL (${c.native.length} alternating rounds, req/s): native ${c.native.join(', ')}; envelope of the same error ${c.envelope.join(', ')}; @sentry/node's envelope ${c.rich.join(', ')}; its native twin ${c.twin.join(', ')}`,
    `  envelope / native (the same error both ways): ratio of means ${m(c.envelope)} / ${m(c.native)} = ${c.ratio.toFixed(2)}× — ${c.ratio >= ENVELOPE_BAR ? 'PASS' : 'FAIL'} (bar ≥ ${ENVELOPE_BAR}×)`,
    `  body bytes: native ${c.bodyBytes.native}, envelope ${c.bodyBytes.envelope}, @sentry/node's envelope ${c.bodyBytes.rich}, its native twin ${c.bodyBytes.twin}`,
    `  @sentry/node's envelope (frames, contexts, sdk) / native: ${m(c.rich)} / ${m(c.native)} = ${c.richRatio.toFixed(2)}×`,
    `  @sentry/node's envelope / its native twin (same content, the protocol's own cost): ${m(c.rich)} / ${m(c.twin)} = ${c.protocolRatio.toFixed(2)}×`,
  ]
}
