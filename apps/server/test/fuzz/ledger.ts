import { MARKER_PATTERN } from './requests'
import type { FuzzReply, FuzzServer } from './server'
import type { EndpointName } from './shapes'

/** Tables whose rows the fuzzer's accepted answers account for. */
type Table = 'events' | 'spans' | 'checkIns' | 'deployments'
/** Management rows counted by their 201s. */
type Counted = 'users' | 'projects' | 'apiKeys' | 'members'

/**
 * What the server said it stored: every accepted id per table, every marker of an accepted body
 * and of a refused one. {@link verifyLedger} compares it with the database.
 */
export interface Ledger {
  readonly ids: Record<Table, Set<string>>
  readonly counts: Record<Counted, number>
  readonly accepted: Set<string>
  readonly refused: Set<string>
  /** What each refused marker's request was answered, for the report of a leak. */
  readonly answers: Map<string, string>
}

/** An empty ledger. */
export function createLedger(): Ledger {
  return {
    ids: { events: new Set(), spans: new Set(), checkIns: new Set(), deployments: new Set() },
    counts: { users: 0, projects: 0, apiKeys: 0, members: 0 },
    accepted: new Set(),
    refused: new Set(),
    answers: new Map(),
  }
}

// biome-ignore lint/suspicious/noExplicitAny: bodies were checked against their schemas already
type Body = any

/**
 * Records an accepted record (201) or a duplicate (200) and the markers of its body; the
 * problems found (a duplicate of an id the ledger never saw stored).
 */
function recordRecord(
  ledger: Ledger,
  table: Table,
  body: Body,
  status: number,
  markers: readonly string[],
) {
  const set = body.type === 'span' ? ledger.ids.spans : ledger.ids[table]
  if (status === 201) {
    set.add(body.id)
    for (const m of markers) ledger.accepted.add(m)
    return []
  }
  // A duplicate's own content is ignored: its markers must never be stored.
  for (const m of markers) {
    ledger.refused.add(m)
    ledger.answers.set(m, `200 duplicate of ${body.id}`)
  }
  return set.has(body.id) ? [] : [`duplicate of ${body.id}, which no 201 of this kind returned`]
}

/** Records one reply whose shape was already checked; returns bookkeeping problems. */
export function record(
  ledger: Ledger,
  endpoint: EndpointName,
  reply: FuzzReply,
  markers: readonly (readonly string[])[],
): string[] {
  // A batch stores its lines on 202 only: all or nothing.
  const ok =
    endpoint === 'batch' ? reply.status === 202 : reply.status === 200 || reply.status === 201
  if (!ok) {
    for (const m of markers.flat()) {
      ledger.refused.add(m)
      ledger.answers.set(m, `${endpoint} ${reply.status} ${reply.text.slice(0, 200)}`)
    }
    return []
  }
  const body: Body = JSON.parse(reply.text)
  const first = markers[0] ?? []
  switch (endpoint) {
    case 'ingestEvent':
      return recordRecord(ledger, 'events', body, reply.status, first)
    case 'checkIn':
      return recordRecord(ledger, 'checkIns', body, reply.status, first)
    case 'deployment':
      ledger.ids.deployments.add(body.id)
      for (const m of first) ledger.accepted.add(m)
      return []
    case 'batch':
      return body.results.flatMap((line: Body, i: number) =>
        recordRecord(ledger, 'events', line, line.duplicate ? 200 : 201, markers[i] ?? []),
      )
    case 'mobileToken':
      ledger.counts.apiKeys += 1
      return []
    case 'createUser':
      ledger.counts.users += 1
      return []
    case 'createProject':
      ledger.counts.projects += 1
      return []
    case 'createApiKey':
      ledger.counts.apiKeys += 1
      return []
    case 'addMember':
      if (reply.status === 201) ledger.counts.members += 1
      return []
    default:
      return []
  }
}

/** Differences between the stored ids of `table` and the accepted ones, with a stray's payload. */
async function sameSet(server: FuzzServer, table: string, stored: string[], expected: Set<string>) {
  const s = new Set(stored)
  const missing = [...expected].filter((id) => !s.has(id))
  const extra = stored.filter((id) => !expected.has(id))
  if (missing.length === 0 && extra.length === 0) return []
  const payload = extra[0]
    ? (
        await server.query<{ t: string }>(`select payload::text as t from ${table} where id = $1`, [
          extra[0],
        ])
      )[0]?.t
    : undefined
  return [
    `${table}: ${missing.length} accepted ids not stored (${missing.slice(0, 3)}), ${extra.length} stored ids never accepted (${extra.slice(0, 3)}; first: ${payload?.slice(0, 600)})`,
  ]
}

/** The fixture's own rows (and any seeded ones), stored before fuzzing starts. */
export interface Baseline {
  readonly events: readonly string[]
  readonly spans: readonly string[]
  readonly checkIns: readonly string[]
  readonly deployments: readonly string[]
  readonly users: number
  readonly projects: number
  readonly apiKeys: number
  readonly members: number
}

/** Reads the baseline right after the fixture is created. */
export async function readBaseline(server: FuzzServer): Promise<Baseline> {
  const count = async (table: string) =>
    Number((await server.query<{ n: string | number }>(`select count(*) as n from ${table}`))[0]?.n)
  const ids = async (sql: string) => (await server.query<{ id: string }>(sql)).map((r) => r.id)
  return {
    events: await ids('select id from events'),
    spans: await ids('select id from spans'),
    checkIns: await ids("select id from check_ins where source = 'check_in'"),
    deployments: await ids("select id from deployments where source = 'api'"),
    users: await count('users'),
    projects: await count('projects'),
    // API keys and mobile tokens; a project's DSN key comes with the project (migration 18).
    apiKeys: await count("api_keys where kind <> 'sentry'"),
    members: await count('project_members'),
  }
}

/**
 * Compares the ledger with the database: exactly the accepted ids are stored per table, the
 * management tables grew by exactly their 201s, and no refused body's marker was stored.
 */
export async function verifyLedger(server: FuzzServer, ledger: Ledger, base: Baseline) {
  const ids = async (sql: string) => (await server.query<{ id: string }>(sql)).map((r) => r.id)
  const count = async (table: string) =>
    Number((await server.query<{ n: string | number }>(`select count(*) as n from ${table}`))[0]?.n)
  const events = new Set([...ledger.ids.events, ...base.events])
  const problems = [
    ...(await sameSet(server, 'events', await ids('select id from events'), events)),
    ...(await sameSet(
      server,
      'spans',
      await ids('select id from spans'),
      new Set([...ledger.ids.spans, ...base.spans]),
    )),
    ...(await sameSet(
      server,
      'check_ins',
      await ids("select id from check_ins where source = 'check_in'"),
      new Set([...ledger.ids.checkIns, ...base.checkIns]),
    )),
    ...(await sameSet(
      server,
      'deployments',
      await ids("select id from deployments where source = 'api'"),
      new Set([...ledger.ids.deployments, ...base.deployments]),
    )),
  ]
  const checkInEvents = await count("events where event_type = 'check_in'")
  const eventCheckIns = await count("check_ins where source = 'event'")
  if (checkInEvents !== eventCheckIns) {
    problems.push(`${checkInEvents} check_in events but ${eventCheckIns} check-ins from events`)
  }
  for (const [table, counted, baseCount] of [
    ['users', ledger.counts.users, base.users],
    ['projects', ledger.counts.projects, base.projects],
    ["api_keys where kind <> 'sentry'", ledger.counts.apiKeys, base.apiKeys],
    ['project_members', ledger.counts.members, base.members],
  ] as const) {
    const n = await count(table)
    if (n !== baseCount + counted)
      problems.push(`${table}: ${n} rows, expected ${baseCount} + ${counted}`)
  }
  const payloads = await server.query<{ row: string; t: string }>(
    `select 'event ' || id as row, payload::text as t from events where payload::text like '%fzm%'
     union all select 'span ' || id, payload::text from spans where payload::text like '%fzm%'
     union all select 'check-in ' || id, payload::text from check_ins where payload::text like '%fzm%'
     union all select 'deployment ' || id, payload::text from deployments where payload::text like '%fzm%'
     union all select 'issue ' || id, title from issues where title like '%fzm%'`,
  )
  const leaked: string[] = []
  for (const { row, t } of payloads) {
    for (const m of t.match(MARKER_PATTERN) ?? []) {
      if (!ledger.accepted.has(m)) leaked.push(`${m} in ${row} (answered ${ledger.answers.get(m)})`)
    }
  }
  if (leaked.length > 0) problems.push(`refused bodies stored: ${leaked.slice(0, 5).join('; ')}`)
  return problems
}

/**
 * The cheap part of {@link verifyLedger}: row counts of the record tables against the ledger.
 * Run after every tolerated 500, so a failed write that stored something is caught at once.
 */
export async function countProblems(server: FuzzServer, ledger: Ledger, base: Baseline) {
  // count(*) is a bigint: a string on postgres.js, a number on PGlite.
  const [row] = await server.query<Record<string, string | number>>(
    `select (select count(*) from events) as events, (select count(*) from spans) as spans,
            (select count(*) from check_ins where source = 'check_in') as check_ins,
            (select count(*) from deployments where source = 'api') as deployments`,
  )
  const expected = {
    events: base.events.length + ledger.ids.events.size,
    spans: base.spans.length + ledger.ids.spans.size,
    check_ins: base.checkIns.length + ledger.ids.checkIns.size,
    deployments: base.deployments.length + ledger.ids.deployments.size,
  }
  return Object.entries(expected)
    .filter(([table, n]) => Number(row?.[table]) !== n)
    .map(([table, n]) => `${table}: ${row?.[table]} rows stored, ${n} accepted`)
}
