import { LIMITS, SPAN_KINDS } from '@tis/schema'
import type { FuzzServer } from './server'

/**
 * Rules every stored row keeps, whatever was sent (issue 17): a span's kind is one of the list
 * (an unknown one is stored as `internal`), and no known string is longer than its limit (longer
 * ones are cut). The problems found, up to `max`, leaving out those in `before`: the rows a read
 * fuzz seeds past validation (issue 18) break these rules on purpose.
 */
export async function storedInvariantProblems(
  server: FuzzServer,
  before: ReadonlySet<string> = new Set(),
  max = 5,
): Promise<string[]> {
  const kinds = SPAN_KINDS.map((k) => `'${k}'`).join(', ')
  const over = (table: string, column: string, limit: number) =>
    `select '${table}.${column} over ${limit}: ' || id from ${table} where char_length(${column}) > ${limit}`
  const rows = await server.query<{ problem: string }>(
    `select problem from (
       select 'span kind ' || kind || ': ' || id as problem from spans
         where kind is not null and kind not in (${kinds})
       union all ${over('events', 'message', LIMITS.maxMessageLength)}
       union all ${over('spans', 'name', LIMITS.maxMessageLength)}
       union all ${over('events', 'level', LIMITS.maxStringLength)}
       union all ${over('events', 'environment', LIMITS.maxStringLength)}
       union all ${over('events', 'transaction_name', LIMITS.maxStringLength)}
       union all ${over('events', 'trace_id', LIMITS.maxStringLength)}
       union all ${over('check_ins', 'slug', LIMITS.maxStringLength)}
       union all ${over('check_ins', 'release', LIMITS.maxStringLength)}
     ) p`,
  )
  return rows
    .map((r) => r.problem)
    .filter((p) => !before.has(p))
    .slice(0, max)
}
