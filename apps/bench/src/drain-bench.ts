// `pnpm bench`: drain throughput of `tis worker` (rows/s into ClickHouse, the
// export following the projection by cursor; timed once the projection has caught up) next to
// direct JSONEachRow inserts of the same rows, and the accept-to-visible lag of the analytics
// store at sustained ingest rates next to the drainer's 1 s pacing interval, in one run.
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  CLICKHOUSE_HINT,
  findClickHouseServer,
  startTestClickHouse,
} from '@tis/test-utils/clickhouse'
import { startTestPostgres } from '@tis/test-utils/postgres'
import postgres from 'postgres'
import { BENCH_EVENT_BODY as body } from './bench-event'
import { createDrainClickHouse } from './drain-clickhouse'
import { measureDrainInterleaved } from './drain-interleaved'
import { measureLag } from './drain-lag'
import { drainRound, EVENTS, fmt, untilDrained } from './drain-round'
import { createProjectWithKey } from './management-client'
import { startNode } from './processes'
import { quantile } from './quantile'
import { type Figure, saveFigures } from './results'

const RATES = (process.env['BENCH_DRAIN_RATES'] ?? '500,1500').split(',').map(Number)
const LAG_SECONDS = Number(process.env['BENCH_DRAIN_LAG_SECONDS'] ?? 15)
const TWO_WORKERS = process.env['BENCH_DRAIN_TWO_WORKERS'] !== '0'
const INTERLEAVED_ROUNDS = Number(process.env['BENCH_DRAIN_INTERLEAVED_ROUNDS'] ?? 5)
/** The drainer's claim size and pacing (packages/analytics-clickhouse/src/drainer.ts). */
const BATCH = 20_000
const PACING_MS = 1_000
const ADMIN_TOKEN = `tis_user_${'d'.repeat(48)}`
const root = fileURLToPath(new URL('../../..', import.meta.url))
const serverMain = join(root, 'apps/server/dist/main.js')

interface Row {
  measurement: string
  result: string
  baseline: string
  ratio: string
}

async function main() {
  const binary = findClickHouseServer()
  if (!binary) {
    console.log(`\nAnalytics drain bench skipped: clickhouse-server not found; ${CLICKHOUSE_HINT}.`)
    return
  }
  const cleanups: Array<() => Promise<unknown>> = []
  const cleanup = async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => {})
  }
  const onSignal = () => void cleanup().then(() => process.exit(130))
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  const rows: Row[] = []
  const notes: string[] = []
  const figures: Figure[] = []
  try {
    const pg = await startTestPostgres({ durable: true })
    cleanups.push(() => pg.stop())
    const clickhouse = await startTestClickHouse(binary)
    cleanups.push(() => clickhouse.destroy())
    const database = `bench_${randomBytes(4).toString('hex')}`
    const ch = createDrainClickHouse(clickhouse.url, database)
    cleanups.push(() => ch.close())
    const env = {
      DATABASE_URL: pg.url,
      SERVICE_ANALYTICS_ENABLED: 'true',
      SERVICE_ANALYTICS_URL: clickhouse.url,
      SERVICE_ANALYTICS_DATABASE: database,
      SERVICE_PUBLIC_API_RATE_LIMIT_STORE: 'none',
      SERVICE_BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
      SERVICE_ADMIN_EMAILS: 'bench@localhost',
      SERVICE_LOG_LEVEL: 'warn',
    }

    // 0. The drain next to a direct insert of the same rows, round by round in one process (the
    // load of this shared machine changes by the second; rounds that alternate see the same).
    const admin = postgres(pg.url, { max: 1, onnotice: () => {} })
    await admin.unsafe('create database drain_interleaved')
    await admin.end()
    const own = new URL(pg.url)
    own.pathname = '/drain_interleaved'
    const interleaved = await measureDrainInterleaved({
      postgresUrl: own.toString(),
      clickhouseUrl: clickhouse.url,
      database: `${database}_interleaved`,
      batch: BATCH,
      rounds: INTERLEAVED_ROUNDS,
    })
    const drainRate = interleaved.rows / interleaved.drainSeconds
    const directRate = interleaved.rows / interleaved.directSeconds
    figures.push({
      what: 'analytics drain rows/s, one drainer, rounds alternating with the direct insert',
      value: Math.round(drainRate),
      unit: 'rows/s',
      baseline: 'direct ClickHouse insert',
      baselineValue: Math.round(directRate),
    })
    rows.push({
      measurement: `drain, rounds alternating with direct (${fmt(interleaved.rows)} rows)`,
      result: `${fmt(drainRate)} rows/s`,
      baseline: `${fmt(directRate)} rows/s direct insert`,
      ratio: `${((drainRate / directRate) * 100).toFixed(0)}%`,
    })
    notes.push(`alternating rounds: ${interleaved.rounds.join('; ')}`)

    // 1. Drain throughput: the server only queues; `tis worker`s drain.
    const queueing = await startNode([serverMain], { ...env, SERVICE_ANALYTICS_DRAIN: 'false' })
    cleanups.push(() => queueing.stop())
    const { token } = await createProjectWithKey(queueing.url, ADMIN_TOKEN)
    const one = await drainRound(queueing, token, ch, 1, env)
    notes.push(one.note)
    const two = TWO_WORKERS ? await drainRound(queueing, token, ch, 2, env) : undefined
    if (two) notes.push(two.note)
    await queueing.stop()
    const direct = await ch.directInsert(EVENTS, BATCH)
    const ceiling = direct.rows / direct.seconds
    const baseline = `${fmt(ceiling)} rows/s direct insert`
    for (const [n, round] of [
      [1, one],
      [2, two],
    ] as const) {
      if (!round) continue
      figures.push({
        what: `analytics drain rows/s, ${n} tis worker${n > 1 ? 's' : ''}`,
        value: Math.round(round.rowsPerSecond),
        unit: 'rows/s',
        baseline: 'direct ClickHouse insert',
        baselineValue: Math.round(ceiling),
      })
      rows.push({
        measurement: `drain, ${n} tis worker${n > 1 ? 's' : ''} (${fmt(EVENTS)} rows)`,
        result: `${fmt(round.rowsPerSecond)} rows/s`,
        baseline,
        ratio: `${((round.rowsPerSecond / ceiling) * 100).toFixed(0)}%`,
      })
    }
    notes.push(
      `direct insert: ${fmt(direct.rows)} rows in ${Math.ceil(direct.rows / BATCH)} JSONEachRow inserts of ≤ ${fmt(BATCH)} in ${direct.seconds.toFixed(2)} s`,
    )

    // 2. Accept-to-visible lag: the server drains in its own process.
    const draining = await startNode([serverMain], { ...env, SERVICE_ANALYTICS_DRAIN: 'true' })
    cleanups.push(() => draining.stop())
    const lagProject = await createProjectWithKey(draining.url, ADMIN_TOKEN, 'lag')
    for (const rate of RATES) {
      await untilDrained(draining.url, ch, 0)
      const lag = await measureLag({
        url: draining.url,
        token: lagProject.token,
        body,
        rate,
        seconds: LAG_SECONDS,
        clickhouse: ch,
      })
      const [p50, p95, max] = [0.5, 0.95, 1].map((q) => quantile(lag.lags, q)) as [
        number,
        number,
        number,
      ]
      const x = (ms: number) => `${(ms / PACING_MS).toFixed(2)}×`
      figures.push({
        what: `analytics lag p50 at ${fmt(rate)} req/s`,
        value: Math.round(p50),
        unit: 'ms',
        baseline: 'drainer pacing',
        baselineValue: PACING_MS,
        note: `p95 ${fmt(p95)} ms, max ${fmt(max)} ms; ${fmt(lag.acceptedPerSecond)} 2xx/s`,
      })
      rows.push({
        measurement: `lag at ${fmt(rate)} req/s (${fmt(lag.acceptedPerSecond)} 2xx/s, ${lag.failed} non-2xx)`,
        result: `p50 ${fmt(p50)} / p95 ${fmt(p95)} / max ${fmt(max)} ms`,
        baseline: `${fmt(PACING_MS)} ms pacing`,
        ratio: `${x(p50)} / ${x(p95)} / ${x(max)}`,
      })
      notes.push(
        `lag at ${rate} req/s: ${lag.lags.length} markers seen, ${lag.lost} never visible, ${lag.markerErrors} not accepted`,
      )
      if (lag.lost > 0 || lag.markerErrors > 0) process.exitCode = 1
    }

    // Every acknowledged event exactly once: outbox empty, no id twice.
    const sql = postgres(pg.url, { max: 1 })
    cleanups.push(() => sql.end())
    const [stored] = await sql<Array<{ n: number }>>`select count(*)::int as n from events`
    const final = await untilDrained(draining.url, ch, stored?.n ?? 0)
    notes.push(
      `at the end: ${fmt(stored?.n ?? 0)} events in PostgreSQL, ${fmt(final.counts.rows)} rows and ${fmt(final.counts.ids)} distinct ids in ClickHouse`,
    )
    if (final.counts.rows !== final.counts.ids || final.counts.rows !== stored?.n) {
      process.exitCode = 1
    }

    console.log(
      `\nAnalytics drain (ClickHouse ${database}) — outbox on durable PostgreSQL 18, load generator on the same machine\n`,
    )
    console.table(rows)
    for (const note of notes) console.log(note)
    saveFigures('3-drain', figures)
  } finally {
    await cleanup()
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}

await main()
