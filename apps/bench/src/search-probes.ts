// The issue search (`GET …/issues?query=…&sort=…`, docs/issues.md#search-syntax) over the read
// bench's seeded project: every documented key, negations, lists, free text, every order, and
// the shapes that read the issues' events (`release:`, `environment:`, `user.id:`) with values
// that match many issues, few, or none.
import type { Sql } from 'postgres'
import type { Probe } from './read-load'
import { RELEASES } from './seed-shape'

/** Users of the seeded project's error events, taken from the data. */
export interface SearchFixtures {
  /** The user with the most error events. */
  readonly commonUser: string
  /** A user with the fewest error events (one, at a million events). */
  readonly rareUser: string
}

/** The most and least frequent user of the project's error events. */
export async function resolveSearchFixtures(sql: Sql, projectId: string): Promise<SearchFixtures> {
  const users = await sql<Array<{ user_id: string }>>`
    (select user_id from events
      where project_id = ${projectId} and issue_id is not null and user_id is not null
      group by user_id order by count(*) desc, user_id limit 1)
    union all
    (select user_id from events
      where project_id = ${projectId} and issue_id is not null and user_id is not null
      group by user_id order by count(*), user_id limit 1)`
  const [common, rare] = users
  if (!common || !rare) throw new Error('the seeded error events have no user_id')
  return { commonUser: common.user_id, rareUser: rare.user_id }
}

const DAY_MS = 86_400_000

/** Issues on the first page of `probe`'s answer: that its terms find the seeded rows. */
export async function firstPageSize(
  url: string,
  probe: Probe,
  headers: Record<string, string>,
): Promise<number> {
  const res = await fetch(`${url}${probe.path}`, { headers })
  if (!res.ok) throw new Error(`GET ${probe.path}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { issues: unknown[] }).issues.length
}

/** One search per documented shape; `sort` defaults to `last_seen`, as the inbox's. */
export function searchProbes(projectId: string, f: SearchFixtures, now = Date.now()): Probe[] {
  const newest = RELEASES[RELEASES.length - 1] ?? ''
  const oldest = RELEASES[0] ?? ''
  const threeDaysAgo = new Date(now - 3 * DAY_MS).toISOString().slice(0, 10)
  const shapes: Array<[query: string, sort?: string]> = [
    ['is:unresolved'],
    ['is:resolved'],
    ['is:[resolved,ignored]'],
    ['is:unassigned'],
    ['assigned:me'],
    ['level:error'],
    ['!level:error'],
    ['times_seen:>100'],
    ['users:>10'],
    ['first_seen:-24h'],
    [`last_seen:>${threeDaysAgo}`],
    ['TimeoutError'],
    ['"connection reset"'],
    ['!TimeoutError'],
    [`release:${newest}`],
    [`release:${oldest}`],
    ['release:api@0.0.1'],
    [`!release:${oldest}`],
    [`release:[${oldest},${RELEASES[1]}]`],
    ['environment:development'],
    ['environment:[staging,development]'],
    ['!environment:production'],
    [`user.id:${f.commonUser}`],
    [`user.id:${f.rareUser}`],
    ['user.id:no-such-user'],
    [`!user.id:${f.commonUser}`],
    ['is:unresolved', 'first_seen'],
    ['is:unresolved', 'times_seen'],
    ['is:unresolved', 'users'],
    [`release:${oldest}`, 'users'],
    [`!environment:production`, 'times_seen'],
    [`is:unresolved level:error release:${newest} user.id:${f.commonUser}`],
    [`is:unresolved level:error release:${oldest} user.id:${f.rareUser}`],
    [`is:unresolved level:error release:${oldest} environment:development TimeoutError`],
    [`is:unresolved !environment:production release:${oldest} times_seen:>10`, 'users'],
  ]
  const p = `/api/v1/projects/${projectId}/issues`
  return shapes.map(([query, sort]) => ({
    name: `${query}${sort ? ` sort=${sort}` : ''}`,
    path: `${p}?query=${encodeURIComponent(query)}${sort ? `&sort=${sort}` : ''}`,
  }))
}
