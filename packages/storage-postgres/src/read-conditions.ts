import type { KeysetCursor } from '@tis/ingest'
import type { SqlParam } from './executor'

/**
 * Collects the `where` conditions of one read query with numbered parameters; `$1` is the
 * project id.
 */
export /** Collects `where` conditions with numbered parameters. */
function conditions(projectId: string) {
  const params: SqlParam[] = [projectId]
  const where: string[] = []
  const param = (value: SqlParam, type: string) => {
    params.push(value)
    return `$${params.length}::${type}`
  }
  return {
    params,
    where,
    param,
    /** Equality on a long user string through its md5 expression index. */
    equals(column: string, value: string | undefined) {
      if (value === undefined) return
      const p = param(value, 'text')
      where.push(`md5(${column}) = md5(${p}) and ${column} = ${p}`)
    },
    /** Plain equality on a short indexed column (environment, release, level, type). */
    is(column: string, value: string | undefined) {
      if (value !== undefined) where.push(`${column} = ${param(value, 'text')}`)
    },
    /** Case-insensitive substring match (`%` and `_` taken literally). */
    contains(column: string, value: string | undefined) {
      if (value === undefined) return
      const escaped = value.replace(/[\\%_]/g, (c) => `\\${c}`)
      where.push(`${column} ilike '%' || ${param(escaped, 'text')} || '%'`)
    },
    /** Keyset: rows strictly after the cursor in (time desc, id desc) order. */
    after(timeColumn: string, idColumn: string, cursor: KeysetCursor | undefined) {
      if (!cursor) return
      where.push(
        `(${timeColumn}, ${idColumn}) < (${param(cursor.at, 'timestamptz')}, ${param(cursor.id, 'uuid')})`,
      )
    },
    sql: () => where.map((w) => ` and ${w}`).join(''),
  }
}
