import { type ClickHouseClient, createClient } from '@clickhouse/client'

/** Rows of `events_raw` and the distinct ids among them (equal unless a row is doubled). */
export interface EventCounts {
  readonly rows: number
  readonly ids: number
}

/** The direct-insert baseline: rows written and the seconds it took. */
export interface DirectInsert {
  readonly rows: number
  readonly seconds: number
}

/** What the drain benchmark asks of the analytics database. */
export interface DrainClickHouse {
  counts(): Promise<EventCounts>
  /** Of `ids`, those already in `events_raw` (compared with `toString(id)`). */
  visible(ids: readonly string[]): Promise<Set<string>>
  /**
   * Copies `rows` rows of `events_raw` into a scratch table made `AS events_raw` (same columns
   * and engine, no materialized view) with JSONEachRow inserts of `batchSize` rows back to back:
   * the ceiling ClickHouse itself allows for rows of exactly this shape.
   */
  directInsert(rows: number, batchSize: number): Promise<DirectInsert>
  close(): Promise<void>
}

const ID = /^[A-Za-z0-9-]{1,64}$/

async function scalar(client: ClickHouseClient, query: string): Promise<Record<string, string>> {
  const result = await client.query({ query, format: 'JSONEachRow' })
  const [row] = await result.json<Record<string, string>>()
  return row ?? {}
}

/** A client for `database` on the ClickHouse at `url`. */
export function createDrainClickHouse(url: string, database: string): DrainClickHouse {
  const client = createClient({ url })
  const events = `${database}.events_raw`
  return {
    async counts() {
      const row = await scalar(
        client,
        `SELECT count() AS rows, uniqExact(id) AS ids FROM ${events}`,
      )
      return { rows: Number(row['rows'] ?? 0), ids: Number(row['ids'] ?? 0) }
    },
    async visible(ids) {
      const wanted = ids.filter((id) => ID.test(id))
      if (wanted.length === 0) return new Set()
      const list = wanted.map((id) => `'${id}'`).join(', ')
      const result = await client.query({
        query: `SELECT toString(id) AS id FROM ${events} WHERE toString(id) IN (${list})`,
        format: 'JSONEachRow',
      })
      return new Set((await result.json<{ id: string }>()).map((r) => r.id))
    },
    async directInsert(rows, batchSize) {
      const scratch = `${database}.bench_direct_insert`
      await client.command({ query: `DROP TABLE IF EXISTS ${scratch}` })
      await client.command({ query: `CREATE TABLE ${scratch} AS ${events}` })
      const read = await client.query({
        query: `SELECT * FROM ${events} LIMIT ${rows}`,
        format: 'JSONEachRow',
      })
      const values = await read.json<Record<string, unknown>>()
      const started = performance.now()
      for (let i = 0; i < values.length; i += batchSize) {
        await client.insert({
          table: scratch,
          values: values.slice(i, i + batchSize),
          format: 'JSONEachRow',
        })
      }
      const seconds = (performance.now() - started) / 1_000
      const stored = Number((await scalar(client, `SELECT count() AS n FROM ${scratch}`))['n'])
      await client.command({ query: `DROP TABLE ${scratch}` })
      if (stored !== values.length) {
        throw new Error(`direct insert: ${stored} of ${values.length} rows in ${scratch}`)
      }
      return { rows: values.length, seconds }
    },
    close: () => client.close(),
  }
}
