// Where a projection round's time goes, on a durable PostgreSQL (fsync on): a backlog of log
// entries is projected in rounds of 1,000, each round in a transaction that is rolled back, so
// every variant writes the same kind of rows into the same tables. Each statement of the round
// is timed on its own; the variants drop a foreign key or an index inside the round's
// transaction first, to price what it costs per row. The write-path bench measures the real
// rate. Run: pnpm --filter @tis/storage-postgres exec tsx --conditions=@tis/source bench/projection-profile.bench.ts
import { startTestPostgres } from '@tis/test-utils/postgres'
import postgres from 'postgres'
import { planBatch } from '../src/batch-plan'
import type { Statement } from '../src/executor'
import { openPostgresStore } from '../src/index'
import { decodeOp } from '../src/log/log-record'
import { createPostgresExecutor } from '../src/postgres-executor'
import { writePlan } from '../src/read-model-write'
import { batchOf, seedProject } from './batch-of'

const ROUND = 1_000
const PREFILL = Number(process.env['BENCH_PROFILE_PREFILL'] ?? 50_000)
const REPEAT = Number(process.env['BENCH_PROFILE_REPEAT'] ?? 3)

/** What each variant drops inside the round's transaction before projecting. */
const VARIANTS: Record<string, string> = {
  'as migrated': '',
  'no events/spans foreign keys': `alter table events drop constraint events_project_id_fkey,
    drop constraint events_issue_id_fkey; alter table spans drop constraint spans_project_id_fkey`,
  'no legacy_id unique indexes': `alter table events drop constraint events_legacy_id_key;
    alter table spans drop constraint spans_legacy_id_key`,
  'no trigram index': 'drop index if exists events_message_trgm_idx',
  'no events_project_type_time_idx': 'drop index events_project_type_time_idx',
  'no md5 filter indexes': `drop index events_project_trace_idx, events_project_request_idx,
    events_project_session_idx, events_project_user_idx`,
  'events: primary key only': `alter table events drop constraint events_project_id_fkey,
    drop constraint events_issue_id_fkey, drop constraint events_legacy_id_key;
    drop index if exists events_message_trgm_idx; drop index events_project_type_time_idx,
    events_project_trace_idx, events_project_request_idx, events_project_session_idx,
    events_project_user_idx, events_issue_idx, events_project_time_idx,
    events_transactions_cover_idx, events_metrics_cover_idx`,
}

const pg = await startTestPostgres({ durable: true })
const sql = postgres(pg.url, { max: 1, onnotice: () => {} })
try {
  const store = await openPostgresStore(pg.url)
  const projectId = await seedProject(store)
  for (let n = 0; n < PREFILL; n += ROUND) await store.append(batchOf(projectId, ROUND))
  while ((await store.project(ROUND)).more);
  const rounds = Object.keys(VARIANTS).length * REPEAT + 1
  for (let i = 0; i < rounds; i++) await store.append(batchOf(projectId, ROUND))
  await store.close()
  await sql`vacuum analyze`

  const db = createPostgresExecutor(sql)
  const entries = await sql<Array<{ seq: string; xid: string; record: unknown }>>`
    select seq, xid::text as xid, record from ingest_log
     where seq > (select seq from log_consumers where name = 'projection') order by ingest_log.xid, ingest_log.seq`
  const times: Record<string, Record<string, number[]>> = {}
  let round = 0
  for (let r = 0; r < REPEAT; r++) {
    for (const [variant, ddl] of Object.entries(VARIANTS)) {
      const slice = entries.slice(round * ROUND, (round + 1) * ROUND)
      round++
      times[variant] = times[variant] ?? {}
      const note = (step: string, ms: number) => {
        const all = times[variant]!
        all[step] = [...(all[step] ?? []), ms]
      }
      await db
        .transaction(async (tx) => {
          if (ddl) await tx.exec(ddl)
          const started = performance.now()
          const ops = slice.map((e) => decodeOp(e.record))
          const plan = planBatch(ops)
          const timed = {
            ...tx,
            async pipeline(statements: readonly Statement[]) {
              note('decode, plan, JSON', performance.now() - started)
              const out = []
              for (const s of statements) {
                const name = /insert into (\w+)/.exec(s.text)?.[1] ?? 'other'
                const at = performance.now()
                out.push(await tx.query(s.text, s.params))
                note(`statement: ${name}`, performance.now() - at)
              }
              return out
            },
          }
          await writePlan(timed, plan, {
            seqs: slice.map((e) => Number(e.seq)),
            xids: slice.map((e) => e.xid),
          })
          note('round (before commit)', performance.now() - started)
          throw new Error('rollback')
        })
        .catch((error: unknown) => {
          if (!(error instanceof Error && error.message === 'rollback')) throw error
        })
    }
  }
  // One more round explained: the foreign key triggers' time per statement.
  const last = entries.slice(round * ROUND, (round + 1) * ROUND)
  await db
    .transaction(async (tx) => {
      const explained = {
        ...tx,
        async pipeline(statements: readonly Statement[]) {
          for (const s of statements) {
            const plan = await tx.query<Record<string, string>>(
              `explain (analyze, buffers, costs off) ${s.text}`,
              s.params,
            )
            const lines = plan.map((row) => Object.values(row)[0]!)
            console.log(lines.join('\n'))
          }
          return statements.map(() => [])
        },
      }
      await writePlan(explained, planBatch(last.map((e) => decodeOp(e.record))), {
        seqs: last.map((e) => Number(e.seq)),
        xids: last.map((e) => e.xid),
      })
      throw new Error('rollback')
    })
    .catch((error: unknown) => {
      if (!(error instanceof Error && error.message === 'rollback')) throw error
    })
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const table: Record<string, Record<string, string>> = {}
  for (const [variant, t] of Object.entries(times)) {
    for (const [step, xs] of Object.entries(t)) {
      table[step] = { ...table[step], [variant]: `${((median(xs) * 1000) / ROUND).toFixed(1)} µs` }
    }
  }
  console.log(
    `per row of a round of ${ROUND} (median of ${REPEAT}), ${PREFILL} rows projected before`,
  )
  console.table(table)
} finally {
  await sql.end()
  await pg.stop()
}
