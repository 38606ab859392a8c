import type { ClickHouseClient } from '@clickhouse/client'

/** What the connected ClickHouse server supports, by version. */
export interface ServerFeatures {
  /** `select version()`, e.g. `18.16.1` or `24.8.4.13`. */
  readonly version: string
  /** 21 or newer: DateTime64(3), LowCardinality(String) and TTL are used. */
  readonly modern: boolean
}

/** The major version from which DDL uses the modern extras. */
export const MODERN_MAJOR_VERSION = 21

/** Features implied by a version string (`18.16.1` → plain types). */
export function featuresOf(version: string): ServerFeatures {
  const major = Number.parseInt(version.split('.')[0] ?? '', 10)
  return { version, modern: Number.isFinite(major) && major >= MODERN_MAJOR_VERSION }
}

/** Asks the server its version. */
export async function detectServerFeatures(client: ClickHouseClient): Promise<ServerFeatures> {
  const result = await client.query({ query: 'SELECT version() AS version', format: 'JSONEachRow' })
  const [row] = await result.json<{ version: string }>()
  return featuresOf(row?.version ?? '')
}
