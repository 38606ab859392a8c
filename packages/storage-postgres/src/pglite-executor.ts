import type { PGlite, Transaction } from '@electric-sql/pglite'
import {
  mapDriverError,
  normalizeParams,
  normalizeRows,
  type Row,
  type SqlExecutor,
  type SqlParam,
} from './executor'

type Client = PGlite | Transaction

/**
 * The {@link SqlExecutor} over PGlite. PGlite has one connection and queues every query and
 * transaction behind the one running, so concurrent callers are serialised, never interleaved.
 */
export function createPgliteExecutor(db: PGlite): SqlExecutor {
  return wrap(db, (fn) =>
    db.transaction((tx) => fn(wrap(tx, () => Promise.reject(nestedTransaction())))),
  )
}

function wrap(
  client: Client,
  begin: <T>(fn: (tx: SqlExecutor) => Promise<T>) => Promise<unknown>,
): SqlExecutor {
  return {
    async query<T extends object = Row>(text: string, params: readonly SqlParam[] = []) {
      try {
        const result = await client.query<Row>(text, normalizeParams(params))
        const columns = result.fields.map((f) => ({ name: f.name, type: f.dataTypeID }))
        return normalizeRows(result.rows, columns) as T[]
      } catch (error) {
        throw mapDriverError(error)
      }
    },
    async pipeline(statements) {
      // In process there is no round trip to save: run them one after another.
      const results: Row[][] = []
      for (const s of statements) results.push(await this.query(s.text, s.params))
      return results
    },
    async exec(script: string) {
      try {
        await client.exec(script)
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
