// The statements the store sends for a read, taken from the store itself, so a benchmark
// EXPLAINs exactly the product's SQL with the product's parameters instead of a copy of it.
import type { PGlite } from '@electric-sql/pglite'
import { createPgliteStore, type PostgresIngestStore } from '@tis/storage-postgres'

/** One statement as the store sent it: its text and its parameters (dates as ISO strings). */
export interface Statement {
  readonly text: string
  readonly params: readonly unknown[]
}

/**
 * The statements `read` makes the store send. The store runs over a stand-in for a PGlite
 * database that records each query and answers it with no rows: a read that would send further
 * statements for the rows of its first gets none, so this is the first statement of each step.
 */
export async function statementsOf(
  read: (store: PostgresIngestStore) => Promise<unknown>,
): Promise<Statement[]> {
  const sent: Statement[] = []
  const recorder = {
    async query(text: string, params: unknown[] = []) {
      sent.push({ text, params })
      return { rows: [], fields: [], affectedRows: 0 }
    },
    async exec() {
      return []
    },
    async transaction<T>(fn: (tx: unknown) => Promise<T>) {
      return fn(recorder)
    },
  }
  await read(createPgliteStore(recorder as unknown as PGlite))
  return sent
}

/** The one statement of `read`; fails when it sends none or several. */
export async function statementOf(
  read: (store: PostgresIngestStore) => Promise<unknown>,
): Promise<Statement> {
  const sent = await statementsOf(read)
  if (sent.length !== 1 || !sent[0]) {
    throw new Error(`expected the read to send one statement, it sent ${sent.length}`)
  }
  return sent[0]
}

/** Runs SQL with positional parameters (postgres.js `unsafe`, PGlite `query`). */
export type RunSql = (text: string, params: readonly unknown[]) => Promise<readonly object[]>

/** `EXPLAIN (<options>)` of `statement` with its own parameters, as text. */
export async function explain(
  run: RunSql,
  statement: Statement,
  options = 'analyze, buffers',
): Promise<string> {
  const rows = await run(`explain (${options}) ${statement.text}`, statement.params)
  return rows.map((r) => String(Object.values(r)[0])).join('\n')
}
