import type { CountCursor, IssueQuery, KeysetCursor } from '@tis/ingest'
import type { AssigneeMatch, IssueSort, SearchBound, SearchFilter } from '@tis/schema'
import type { conditions } from './read-conditions'

// The search syntax's terms (`query=`, docs/issues.md#search-syntax) as SQL conditions on the
// issue inbox (`issues i`) and the events list (`events e`), and the inbox's sort orders.

type Conditions = ReturnType<typeof conditions>

/** A condition that holds, or its negation; a NULL (an event without a level) is not a match. */
const negatable = (negated: boolean, sql: string) => (negated ? `not coalesce(${sql}, false)` : sql)

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`)

function bounds<T extends number | Date>(
  c: Conditions,
  column: string,
  type: string,
  list: readonly SearchBound<T>[],
): string {
  return list.map((b) => `${column} ${b.op} ${c.param(b.value, type)}`).join(' and ')
}

/** `column = any(values)`, or also through its md5 expression index when `hashed`. */
function anyOf(c: Conditions, column: string, values: readonly string[], hashed: boolean): string {
  const p = c.param([...values], 'text[]')
  return hashed
    ? `(md5(${column}) = any(array(select md5(v) from unnest(${p}) v)) and ${column} = any(${p}))`
    : `${column} = any(${p})`
}

function unsupported(filter: SearchFilter): never {
  throw new Error(
    `the store cannot search by ${filter.kind} ${'field' in filter ? filter.field : ''}`,
  )
}

/** Adds the conditions of `filters` to an inbox query over `issues i`. */
export function issueSearchSql(c: Conditions, filters: readonly SearchFilter[] | undefined): void {
  for (const f of filters ?? []) {
    let sql: string
    switch (f.kind) {
      case 'status':
        sql = `i.status = any(${c.param([...f.values], 'text[]')})`
        break
      case 'value': {
        if (f.field === 'level') {
          sql = `i.level = any(${c.param([...f.values], 'text[]')})`
          break
        }
        // The issue matches when one of its events does: the events carry these values. One
        // probe of `events_issue_<field>_idx` per issue (hashed, as that index is). `offset 0`
        // keeps it that probe: as a join or a hashed subplan the planner may read every event
        // of a common value, or of none, to answer a page of issues (seconds at a million).
        const column = f.field === 'user.id' ? 'e.user_id' : `e.${f.field}`
        sql = `exists (select 1 from events e where e.project_id = i.project_id and e.issue_id = i.id and ${anyOf(c, column, f.values, true)} offset 0)`
        break
      }
      case 'count':
        sql = `(${bounds(c, f.field === 'users' ? 'i.users' : 'i.count', 'bigint', f.bounds)})`
        break
      case 'time':
        if (f.field === 'timestamp') unsupported(f)
        sql = `(${bounds(c, f.field === 'first_seen' ? 'i.first_seen_at' : 'i.last_seen_at', 'timestamptz', f.bounds)})`
        break
      case 'text':
        sql = `i.title ilike '%' || ${c.param(escapeLike(f.value), 'text')} || '%'`
        break
      case 'assigned':
        sql = `(${f.values.map((v) => assigneeSql(c, v)).join(' or ')})`
        break
      default:
        unsupported(f)
    }
    c.where.push(negatable(f.negated, sql))
  }
}

/** One assignee of an `assigned:` term; `me` and emails are resolved to users before a store. */
function assigneeSql(c: Conditions, match: AssigneeMatch): string {
  switch (match.kind) {
    case 'any':
      return 'i.assignee_id is not null'
    case 'none':
      return 'i.assignee_id is null'
    case 'user':
      return `i.assignee_id = ${c.param(match.userId, 'uuid')}`
    default:
      throw new Error(`the store cannot search by the assignee ${match.kind}: resolve it first`)
  }
}

/** Adds the conditions of `filters` to an events list query over `events e`. */
export function eventSearchSql(c: Conditions, filters: readonly SearchFilter[] | undefined): void {
  for (const f of filters ?? []) {
    let sql: string
    switch (f.kind) {
      case 'value': {
        const column = f.field === 'user.id' ? 'e.user_id' : `e.${f.field}`
        sql = anyOf(c, column, f.values, f.field === 'user.id')
        break
      }
      case 'time':
        if (f.field !== 'timestamp') unsupported(f)
        sql = `(${bounds(c, 'e.occurred_at', 'timestamptz', f.bounds)})`
        break
      case 'text':
        sql = `e.message ilike '%' || ${c.param(escapeLike(f.value), 'text')} || '%'`
        break
      default:
        unsupported(f)
    }
    c.where.push(negatable(f.negated, sql))
  }
}

/** Each inbox order's column and its type, descending then by id. */
const ORDERS: Readonly<Record<IssueSort, { column: string; type: string }>> = {
  last_seen: { column: 'i.last_seen_at', type: 'timestamptz' },
  first_seen: { column: 'i.first_seen_at', type: 'timestamptz' },
  times_seen: { column: 'i.count', type: 'bigint' },
  users: { column: 'i.users', type: 'bigint' },
}

/** The `order by` of an inbox query, after adding its keyset condition to `c`. */
export function issueOrderSql(c: Conditions, query: Pick<IssueQuery, 'sort' | 'after'>): string {
  const sort = query.sort ?? 'last_seen'
  const { column, type } = ORDERS[sort]
  const after: KeysetCursor | CountCursor | undefined = query.after
  if (after) {
    const value = 'count' in after ? after.count : after.at
    c.where.push(`(${column}, i.id) < (${c.param(value, type)}, ${c.param(after.id, 'uuid')})`)
  }
  return `order by ${column} desc, i.id desc`
}
