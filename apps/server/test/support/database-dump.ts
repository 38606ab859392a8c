import { execFile } from 'node:child_process'
import postgres from 'postgres'

/** A dump of a whole PostgreSQL database as text, and how it was made. */
export interface DatabaseDump {
  /** Every row of every table, as text (`pg_dump`'s plain format, or `COPY … TO STDOUT` rows). */
  readonly text: string
  /** `pg_dump`, or `copy` with the reason `pg_dump` could not be used. */
  readonly via: string
  /** The tables copied (`copy` only): schema-qualified names, partitions included. */
  readonly tables: readonly string[]
}

/** Runs `pg_dump` (from PATH) on `url`; resolves its output, or why it failed. */
function pgDump(url: string): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    execFile(
      'pg_dump',
      ['--no-owner', '--no-privileges', '--dbname', url],
      { maxBuffer: 512 * 1024 * 1024, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error === null) resolve({ ok: true, text: stdout })
        else resolve({ ok: false, reason: (stderr.trim() || error.message).split('\n')[0]! })
      },
    )
  })
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

/** Relations that no longer exist: another suite dropped its schema between listing and copying. */
const GONE = new Set(['42P01', '3F000'])

/** The rows of one table as `COPY (SELECT * FROM table) TO STDOUT` writes them. */
async function copyTable(url: string, table: string): Promise<string> {
  // A client per table: postgres.js 3.4.9 can leave a connection's socket paused after a COPY
  // stream whose last rows and end arrived in one read (porsager/postgres#1016), so the next
  // statement on that connection would wait forever. Ending the client drops such a connection.
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const chunks: string[] = []
    const stream = await sql.unsafe(`copy (select * from ${table}) to stdout`).readable()
    for await (const chunk of stream) chunks.push(String(chunk))
    return chunks.join('')
  } finally {
    await sql.end({ timeout: 1 })
  }
}

/**
 * Every row of every table of every schema but PostgreSQL's own, with `COPY (SELECT * FROM t)
 * TO STDOUT`. Tables are listed from `pg_class` as leaf relations (`relkind` `r`), so each
 * partition of a partitioned table (the ingest log's days, its default partition) is copied on
 * its own and none twice; TOASTed values come out detoasted, `jsonb` as its text.
 */
async function copyDump(url: string): Promise<{ text: string; tables: string[] }> {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  let rows: { schema: string; name: string }[]
  try {
    rows = await sql<{ schema: string; name: string }[]>`
      select n.nspname as schema, c.relname as name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'r'
        and n.nspname not in ('pg_catalog', 'information_schema')
        and n.nspname not like 'pg\_toast%' and n.nspname not like 'pg\_temp%'
      order by 1, 2`
  } finally {
    await sql.end()
  }
  const chunks: string[] = []
  const tables: string[] = []
  for (const { schema, name } of rows) {
    const table = `${quote(schema)}.${quote(name)}`
    try {
      chunks.push(`-- ${table}\n`, await copyTable(url, table))
      tables.push(`${schema}.${name}`)
    } catch (error) {
      if (!GONE.has((error as { code?: string }).code ?? '')) throw error
    }
  }
  return { text: chunks.join(''), tables }
}

/**
 * Dumps the database at `url` (a server's whole database, every schema in it): with `pg_dump`
 * when it works, else — `pg_dump` missing, or refusing a server newer than itself (this image's
 * `/usr/bin/pg_dump` is PostgreSQL 15; the run's embedded server is 18) — by copying every
 * table ({@link copyDump}).
 */
export async function dumpDatabase(url: string): Promise<DatabaseDump> {
  const dumped = await pgDump(url)
  if (dumped.ok) return { text: dumped.text, via: 'pg_dump', tables: [] }
  const { text, tables } = await copyDump(url)
  return { text, via: `copy (pg_dump: ${dumped.reason})`, tables }
}
