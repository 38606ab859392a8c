import { StoreError } from '@tis/ingest'
import type postgres from 'postgres'
import {
  mapDriverError,
  normalizeParams,
  normalizeRows,
  type Row,
  type SqlExecutor,
  type SqlParam,
} from './executor'

type Client = postgres.Sql | postgres.TransactionSql

/**
 * The {@link SqlExecutor} over a postgres.js client. `unsafe(text, params)` runs our own
 * parameterised SQL (no user text is ever concatenated into it); int8 columns, which postgres.js
 * returns as strings, become numbers. Statements are prepared (named, cached per connection)
 * when the client's `prepare` option allows, as postgres.js does for its tagged templates;
 * `unsafe` alone would not.
 */
export function createPostgresExecutor(sql: postgres.Sql): SqlExecutor {
  const prepare = sql.options?.prepare !== false
  return wrap(sql, prepare, (fn) => transaction(sql, prepare, fn))
}

/**
 * BEGIN … COMMIT on a reserved connection. Not `sql.begin()`: when the connection closes under a
 * transaction (the database stopping), postgres.js 3.4.9 still writes its ROLLBACK to the closed
 * socket, which throws from a `setImmediate` and kills the process (porsager/postgres#1154,
 * #1208). A connection that failed is neither rolled back (the server already did) nor released
 * (postgres.js has put it back among its closed connections).
 */
async function transaction<T>(
  sql: postgres.Sql,
  prepare: boolean,
  fn: (tx: SqlExecutor) => Promise<T>,
): Promise<T> {
  const reserved = await sql.reserve()
  let release = true
  try {
    await reserved.unsafe('begin')
    const result = await fn(wrap(reserved, prepare, () => Promise.reject(nestedTransaction())))
    await reserved.unsafe('commit')
    return result
  } catch (error) {
    const mapped = mapDriverError(error)
    if (StoreError.is(mapped) && mapped.code === 'unavailable') release = false
    else await reserved.unsafe('rollback').catch(() => {})
    throw error
  } finally {
    if (release) reserved.release()
  }
}

function wrap(
  client: Client,
  prepare: boolean,
  begin: <T>(fn: (tx: SqlExecutor) => Promise<T>) => Promise<unknown>,
): SqlExecutor {
  // One statement, int8 columns as numbers; query and pipeline both go through here.
  const run = async (text: string, params: readonly SqlParam[]) => {
    // biome-ignore lint/suspicious/noExplicitAny: postgres.js types parameters by its `types` option
    const result = await client.unsafe(text, normalizeParams(params) as any[], { prepare })
    return normalizeRows(withoutHoles(result as unknown as Row[]), result.columns ?? [])
  }
  return {
    async query<T extends object = Row>(text: string, params: readonly SqlParam[] = []) {
      try {
        return (await run(text, params)) as T[]
      } catch (error) {
        throw mapDriverError(error)
      }
    },
    async pipeline(statements) {
      try {
        // Issued together on one connection, postgres.js writes them back to back and reads
        // the replies in order: one round trip for the lot.
        return await Promise.all(statements.map((s) => run(s.text, s.params)))
      } catch (error) {
        throw mapDriverError(error)
      }
    },
    async exec(script: string) {
      try {
        await client.unsafe(script).simple()
      } catch (error) {
        throw mapDriverError(error)
      }
    },
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      try {
        return (await begin(fn)) as T
      } catch (error) {
        throw mapDriverError(error)
      }
    },
  }
}

function nestedTransaction(): Error {
  return new Error('@tis/storage-postgres: nested transactions are not supported')
}

/**
 * The rows without leading holes. postgres.js 3.4.9 keeps its per-connection row counter when a
 * query fails after streaming some rows, or its connection closes mid-stream: the next query on
 * that connection stores its rows from that offset on (porsager/postgres#1119, #1181). The rows
 * after the holes are the query's own, complete (the result object itself is renewed at each
 * ReadyForQuery); only the offset is wrong.
 */
function withoutHoles(rows: Row[]): Row[] {
  if (rows.length === 0 || rows[0] !== undefined) return rows
  let first = 1
  while (first < rows.length && rows[first] === undefined) first++
  return rows.slice(first)
}
