import { randomBytes } from 'node:crypto'
import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client'

/** A client for a test server; short timeouts so an outage fails fast. */
export function testClient(url: string): ClickHouseClient {
  return createClient({ url, request_timeout: 5_000, log: { level: ClickHouseLogLevel.OFF } })
}

/** A database name no other test uses. */
export function uniqueDatabase(prefix = 't'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`
}

/** Rows of `query` as JSON objects. */
export async function rows<T>(client: ClickHouseClient, query: string): Promise<T[]> {
  const result = await client.query({ query, format: 'JSONEachRow' })
  return result.json<T>()
}
