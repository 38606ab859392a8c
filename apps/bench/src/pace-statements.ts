import type postgres from 'postgres'

// PostgreSQL's own account of where a run's time went: pg_stat_statements, reset before each
// measured run (the pace bench's server loads it, see startTestPostgres({ statements })).

/** One statement's share of a run. */
export interface StatementCost {
  /** The statement's first words (its kind and table). */
  readonly statement: string
  readonly calls: number
  /** Execution time in ms, summed over the calls. */
  readonly 'total ms': number
  readonly 'ms/call': number
  /** Execution µs per row of the run (the run's rows, not the statement's); none when unknown. */
  readonly 'µs/row': number | null
  /** Shared buffers the statement dirtied, summed. */
  readonly dirtied: number
  /** WAL bytes the statement wrote, per row of the run. */
  readonly 'WAL B/row': number | null
}

/** Creates the extension (once per database) and clears its counters. */
export async function resetStatements(sql: postgres.Sql): Promise<void> {
  await sql`create extension if not exists pg_stat_statements`
  await sql`select pg_stat_statements_reset()`
}

/** The costliest statements since the last reset, `rows` being the run's rows. */
export async function topStatements(
  sql: postgres.Sql,
  rows: number,
  limit = 8,
): Promise<StatementCost[]> {
  const found = await sql<
    Array<{ query: string; calls: number; total: number; dirtied: number; wal: number }>
  >`select query, calls::int, total_exec_time::float8 as total,
           shared_blks_dirtied::float8 as dirtied, wal_bytes::float8 as wal
      from pg_stat_statements
     where query not ilike '%pg_stat_statements%'
     order by total_exec_time desc limit ${limit}`
  return found.map((s) => ({
    statement: label(s.query),
    calls: s.calls,
    'total ms': Math.round(s.total),
    'ms/call': Math.round((s.total / Math.max(1, s.calls)) * 10) / 10,
    'µs/row': rows > 0 ? Math.round((s.total * 1000) / rows) : null,
    dirtied: s.dirtied,
    'WAL B/row': rows > 0 ? Math.round(s.wal / rows) : null,
  }))
}

/** A statement's kind and the tables it writes or reads first, in under 60 characters. */
function label(query: string): string {
  const flat = query.replace(/\s+/g, ' ').trim()
  const write = /\b(insert into|update|delete from)\s+([a-z_]+)/i.exec(flat)
  const head = write ? `${write[1]} ${write[2]}` : flat
  return head.length > 60 ? `${head.slice(0, 57)}…` : head
}
