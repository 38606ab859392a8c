import {
  type BatchPlan,
  FIRST_RELEASE_AT,
  type IssueRow,
  LAST_RELEASE_AT,
  rowKey,
  USERS,
} from './batch-plan'
import type { SqlExecutor } from './executor'
import { toJsonParam } from './json-param'

// The projection's side of merged issues (docs/issues.md#merging-issues): a round's events of a
// merged fingerprint join the issue it was merged into. The round holds the projection's
// position lock, which a merge takes too (issue-merge.ts), so no merge commits between this
// look-up and the round's writes.

/** The round's projects that have merged issues: one index probe per project. */
const PROJECTS_WITH_MERGES = /* sql */ `
select distinct m.project_id::text as project_id
  from unnest($1::uuid[]) as p(id)
  cross join lateral (select project_id from issue_merges where project_id = p.id limit 1) m`

/** The hash of the issue each merged `(project_id, hash)` of the input now belongs to. */
const FOLLOW = /* sql */ `
select r.k, i.hash
  from jsonb_to_recordset($1::text::jsonb) as r(k int, project_id uuid, hash text)
  join issue_merges m on m.project_id = r.project_id and m.hash = r.hash
  join issues i on i.id = m.issue_id`

/**
 * Rewrites `plan` so that each issue row of a merged fingerprint becomes (or joins) the row of
 * the issue it was merged into; the events keyed to it follow. Costs one round trip when none
 * of the round's projects has merged issues, two otherwise.
 */
export async function followMerges(tx: SqlExecutor, plan: BatchPlan): Promise<void> {
  if (plan.issues.size === 0) return
  const projects = new Set<string>()
  for (const row of plan.issues.values()) projects.add(row.project_id.toLowerCase())
  const merged = await tx.query<{ project_id: string }>(PROJECTS_WITH_MERGES, [[...projects]])
  if (merged.length === 0) return
  const withMerges = new Set(merged.map((r) => r.project_id.toLowerCase()))
  const candidates = [...plan.issues].filter(([, row]) =>
    withMerges.has(row.project_id.toLowerCase()),
  )
  const found = await tx.query<{ k: number; hash: string }>(FOLLOW, [
    toJsonParam(
      candidates.map(([, row], k) => ({ k, project_id: row.project_id, hash: row.hash })),
    ),
  ])
  if (found.length === 0) return
  const moved = new Map<string, string>()
  for (const { k, hash } of found) {
    const [key, row] = candidates[k]!
    const into = rowKey(row.project_id, hash)
    plan.issues.delete(key)
    const kept = plan.issues.get(into)
    if (kept) combine(kept, row)
    else plan.issues.set(into, { ...row, hash })
    moved.set(key, into)
  }
  plan.eventIssueKeys.forEach((key, i) => {
    const into = key === null ? undefined : moved.get(key)
    if (into !== undefined) plan.eventIssueKeys[i] = into
  })
}

/** Folds the batch's row of one fingerprint into the row of the issue it was merged into. */
function combine(into: IssueRow, from: IssueRow): void {
  into.count += from.count
  const users = from[USERS]
  if (users) {
    if (into[USERS]) for (const user of users) into[USERS].add(user)
    else into[USERS] = new Set(users)
  }
  if (from.first_seen_at < into.first_seen_at) into.first_seen_at = from.first_seen_at
  if (from.last_seen_at >= into.last_seen_at) {
    into.last_seen_at = from.last_seen_at
    into.level = from.level
    into.latest_event_id = from.latest_event_id
  }
  if (from[FIRST_RELEASE_AT] < into[FIRST_RELEASE_AT]) {
    into.first_release = from.first_release
    into[FIRST_RELEASE_AT] = from[FIRST_RELEASE_AT]
  }
  if (from[LAST_RELEASE_AT] >= into[LAST_RELEASE_AT]) {
    into.last_release = from.last_release
    into[LAST_RELEASE_AT] = from[LAST_RELEASE_AT]
  }
}
