import { EXTREME, extremeRowsSql } from '@tis/test-utils/extreme-rows'
import type { FuzzServer } from './server'

/**
 * Seeds the fuzzed project as an old database may hold it (issue 18; `extreme-rows.ts`): max and
 * min finite doubles, NaN and ±Infinity, the largest bigints, BC, far-future and ±infinity
 * timestamps, 10,000-character names, script links — written straight into the tables, past
 * validation. The fixture's trace gets the extreme spans, and its issue and event become extreme
 * ones, so the path-id reads (one issue, one event, one trace) hit them too.
 */
export async function seedExtremeRows(fuzz: FuzzServer): Promise<FuzzServer> {
  const { projectId, traceId } = fuzz.fixture
  for (const sql of extremeRowsSql(projectId, new Date(), traceId)) await fuzz.query(sql)
  const [issue] = await fuzz.query<{ id: string }>(
    `select id::text as id from issues where project_id = $1::uuid and last_seen_at = 'infinity'`,
    [projectId],
  )
  const [event] = await fuzz.query<{ id: string }>(
    `select id::text as id from events where project_id = $1::uuid and event_type = 'error'
        and message like $2 and occurred_at = 'infinity'`,
    [projectId, `${EXTREME.issueTitlePrefix}%`],
  )
  if (!issue || !event) throw new Error('seeding the extreme rows found no extreme issue or event')
  return { ...fuzz, fixture: { ...fuzz.fixture, issueId: issue.id, eventId: event.id } }
}
