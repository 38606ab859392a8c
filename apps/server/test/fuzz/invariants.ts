import { LIMITS, SPAN_KINDS } from '@tis/schema'
import type { FuzzServer } from './server'

/**
 * Rules every stored row keeps, whatever was sent (issue 17): a span's kind is one of the list
 * (an unknown one is stored as `internal`), and no known string is longer than its limit (longer
 * ones are cut). The problems found, with a sample of each.
 */
export async function storedInvariantProblems(server: FuzzServer): Promise<string[]> {
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
     ) p limit 5`,
  )
  return rows.map((r) => r.problem)
}
