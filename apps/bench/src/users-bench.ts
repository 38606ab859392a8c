// `pnpm --filter @tis/bench bench:users` (part of `pnpm bench`): "user counting adds ≤ 10% to
// projection cost" (issue 36, docs/benchmarks.md#affected-users). On a durable PostgreSQL, the
// real engine accepts BENCH_USERS_EVENTS (20,000) Sentry error events per variant onto the ingest
// log, over 200 issues (`fingerprint`), then the store projects them in rounds of 1,000, timed
// with the processor time of this process and of PostgreSQL (/proc):
// - `none`: no `user` (baseline: the round writes no `issue_users` row and sends no statement);
// - `known`: a user of a pool of 1,000 already counted for that issue (steady state: each round
//   probes `issue_users` once per (issue, user) pair and writes nothing);
// - `new`: a user never seen before in every event (the worst case: a pair inserted per event and
//   each issue's count updated once per round).
// Variants run in a rotating order for BENCH_USERS_ROUNDS (4) rounds, each on its own project.
// The figure is (bench + PostgreSQL) µs per event, each variant's mean over the baseline's. It is
// an upper bound of what counting costs: `none` also skips the `events` row's user index entry,
// which tis maintained before it counted users.
import { openPostgresStore } from '@tis/storage-postgres'
import { startTestPostgres } from '@tis/test-utils/postgres'
import { seedProject } from '@tis/test-utils/store-fixtures'
import postgres from 'postgres'
import { saveFigures } from './results'
import { acceptEvents, benchIngestApi } from './sourcemap-events'
import { type ProjectionRun, projectionMeters, timeProjection } from './sourcemap-projection'

const EVENTS = Number(process.env['BENCH_USERS_EVENTS'] ?? 20_000)
const ROUNDS = Number(process.env['BENCH_USERS_ROUNDS'] ?? 4)
const ISSUES = 200
const POOL = 1000
const VARIANTS = ['none', 'known', 'new'] as const
type Variant = (typeof VARIANTS)[number]

/** A Python SDK's error event of issue `n % ISSUES`, with `user` as given. */
function errorEvent(eventId: string, n: number, user: object | undefined) {
  return {
    event_id: eventId,
    timestamp: Date.now() / 1000,
    platform: 'python',
    level: 'error',
    environment: 'production',
    release: 'shop@1.0.0',
    fingerprint: [`checkout-${n % ISSUES}`],
    exception: {
      values: [
        {
          type: 'KeyError',
          value: `'price' (${n % ISSUES})`,
          stacktrace: {
            frames: Array.from({ length: 7 }, (_, i) => ({
              filename: `app/shop/module_${i}.py`,
              function: `step_${i}`,
              lineno: 10 + i,
              in_app: true,
            })),
          },
        },
      ],
    },
    ...(user ? { user } : {}),
    sdk: { name: 'sentry.python', version: '2.19.0' },
  }
}

let fresh = 0
/** The user of event `n` in `variant`. */
const userOf = (variant: Variant, n: number) =>
  variant === 'none'
    ? undefined
    : variant === 'known'
      ? { id: `user-${n % POOL}`, email: `user-${n % POOL}@example.com` }
      : { id: `new-${++fresh}`, email: `new-${fresh}@example.com` }

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const perEvent = (r: ProjectionRun) => ((r.benchCpu + (r.pgCpu ?? 0)) / r.events) * 1e6

async function main() {
  const pg = await startTestPostgres({ durable: true })
  const store = await openPostgresStore(pg.url)
  const sql = postgres(pg.url, { max: 1, onnotice: () => {} })
  try {
    const api = benchIngestApi(store)
    const meters = await projectionMeters(sql)
    const projects = {} as Record<Variant, { projectId: string; number: number; sentryKey: string }>
    for (const variant of VARIANTS) {
      const { projectId } = await seedProject(store)
      const project = await store.findProject(projectId)
      if (!project?.number || !project.sentryKey) throw new Error('the project has no DSN')
      projects[variant] = { projectId, number: project.number, sentryKey: project.sentryKey }
    }
    // `known`: every (issue, user) pair of its events counted once before the measured rounds.
    await acceptEvents(api, projects.known, POOL, (id, n) => errorEvent(id, n, userOf('known', n)))
    await timeProjection(store, meters)
    const runs: Record<Variant, ProjectionRun[]> = { none: [], known: [], new: [] }
    for (let round = 0; round < ROUNDS; round++) {
      const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]!)
      for (const variant of order) {
        await acceptEvents(api, projects[variant], EVENTS, (id, n) =>
          errorEvent(id, n, userOf(variant, n)),
        )
        const run = await timeProjection(store, meters)
        if (run.events !== EVENTS) throw new Error(`${variant}: projected ${run.events} events`)
        runs[variant].push(run)
        console.log(
          `round ${round + 1}, ${variant}: ${Math.round(run.events / run.seconds)} events/s, ${perEvent(run).toFixed(0)} µs/event (bench ${((run.benchCpu / run.events) * 1e6).toFixed(0)} + PostgreSQL ${(((run.pgCpu ?? 0) / run.events) * 1e6).toFixed(0)})`,
        )
      }
    }
    // What the rounds counted: exactly the users sent.
    const counted = await sql<Array<{ project: string; users: number }>>`
      select project_id::text as project, sum(users)::int as users from issues
        where project_id = any(${VARIANTS.map((v) => projects[v].projectId)}::uuid[])
        group by project_id`
    const usersOf = (v: Variant) => counted.find((r) => r.project === projects[v].projectId)?.users
    const expected: Record<Variant, number> = { none: 0, known: POOL, new: EVENTS * ROUNDS }
    const checks = VARIANTS.filter((v) => (usersOf(v) ?? 0) !== expected[v]).map(
      (v) => `${v}: counted ${usersOf(v) ?? 0} users, sent ${expected[v]}`,
    )
    const base = mean(runs.none.map(perEvent))
    console.log(
      `\nAffected users in the projection — ${EVENTS.toLocaleString('en-US')} events per variant and round, ${ROUNDS} rounds, ${ISSUES} issues\n`,
    )
    console.log('| variant | events/s (rounds) | µs/event bench + PostgreSQL (rounds) | vs none |')
    console.log('| --- | --- | --- | --- |')
    for (const v of VARIANTS) {
      const rates = runs[v].map((r) => Math.round(r.events / r.seconds).toLocaleString('en-US'))
      const costs = runs[v].map((r) => perEvent(r).toFixed(0))
      const ratio = mean(runs[v].map(perEvent)) / base
      console.log(
        `| ${v} | ${rates.join(', ')} | ${costs.join(', ')} | ${(ratio * 100).toFixed(0)}% |`,
      )
    }
    console.log(
      `\nbar: user counting adds ≤ 10% to projection cost — steady state (known) ${((mean(runs.known.map(perEvent)) / base - 1) * 100).toFixed(1)}%, every user new ${((mean(runs.new.map(perEvent)) / base - 1) * 100).toFixed(1)}%`,
    )
    for (const check of checks) console.log(`CHECK FAILED: ${check}`)
    saveFigures('9-users', [
      {
        what: 'projection with affected users, steady state',
        value: Math.round(mean(runs.known.map(perEvent))),
        unit: 'µs/event (bench + PostgreSQL)',
        baseline: 'events without a user',
        baselineValue: Math.round(base),
      },
      {
        what: 'projection with affected users, every user new',
        value: Math.round(mean(runs.new.map(perEvent))),
        unit: 'µs/event (bench + PostgreSQL)',
        baseline: 'events without a user',
        baselineValue: Math.round(base),
      },
    ])
    if (checks.length > 0) process.exitCode = 1
  } finally {
    await store.close()
    await sql.end()
    await pg.stop()
  }
}

await main()
