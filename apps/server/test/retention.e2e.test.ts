import {
  ADMIN_TOKEN,
  createClient,
  describeOnPglite,
  describeOnPostgres,
  type Harness,
  RETENTION_TEST_ENV,
  runTis,
  SUITE_ENV,
} from '@tis/test-utils/server'
import { expect, it } from 'vitest'
import { runCli } from '../src/cli/run'

// Retention (issue 23) on a real server whose clock the test moves: the management API and CLI
// for a project's period, the server's own pass, the issue that outlives its events, and
// `tis prune` (PostgreSQL: a second process on the same database).
const DAY = 86_400

async function seeded(h: Harness) {
  const c = createClient(h.url)
  const { projectId, key } = await c.projectWithKey()
  const send = (message: string, daysAgo: number) =>
    c.ingest('/api/v1/ingest_events', key, {
      event: {
        event_type: 'error',
        message,
        occurred_at: new Date(h.now().getTime() - daysAgo * DAY * 1000).toISOString(),
      },
    })
  for (const [message, age] of [
    ['old boom', 100],
    ['old boom', 95],
    ['new boom', 1],
  ] as const) {
    expect((await send(message, age)).status).toBe(201)
  }
  const read = async (path: string, token = ADMIN_TOKEN) =>
    c.api('GET', `/api/v1/projects/${projectId}${path}`, { token })
  return { c, projectId, read }
}

function describeRetention(h: () => Harness) {
  it("shows a project's period and disk use; owners shorten it, administrators lengthen it", async () => {
    const { c, projectId, read } = await seeded(h())
    const shown = await read('/retention')
    expect(shown.body.retention).toMatchObject({
      days: 90,
      project_days: null,
      default_days: 90,
      usage: { events: { rows: 3 }, artifacts: { rows: 0, bytes: 0 } },
    })
    expect(shown.body.retention.usage.total_bytes).toBeGreaterThan(0)
    // An owner who is not an administrator: shorter yes, longer or forever no.
    const owner = await c.createUser()
    const own = await c.createProject(owner.token)
    const put = (id: string, token: string, days: unknown) =>
      c.api('PUT', `/api/v1/projects/${id}/retention`, { token, json: { retention: { days } } })
    expect((await put(own.id, owner.token, 30)).body.retention).toMatchObject({ days: 30 })
    const longer = await put(own.id, owner.token, 365)
    expect(longer.status).toBe(403)
    expect(longer.body.error).toMatch(/administrator .* longer than the server default \(90 days\)/)
    expect((await put(own.id, owner.token, 0)).status).toBe(403)
    expect((await put(own.id, owner.token, null)).body.retention).toMatchObject({ days: 90 })
    expect((await put(projectId, ADMIN_TOKEN, 0)).body.retention).toMatchObject({ days: 0 })
    const invalid = await put(projectId, ADMIN_TOKEN, -1)
    expect(invalid.status).toBe(422)
    expect(invalid.body.errors.join()).toMatch(/days must be greater than or equal to 0/)
    // The CLI over the same API.
    const env = { TIS_TOKEN: ADMIN_TOKEN, TIS_URL: h().url }
    const set = await runTis(['retention', 'set', projectId, '--days', '14'], env)
    expect(set.code, set.stderr).toBe(0)
    expect(set.stdout).toContain("kept:     14 days (the project's own)")
    const back = await runTis(['retention', 'set', projectId, '--days', 'default'], env)
    expect(back.stdout).toContain('kept:     90 days (the server default)')
    expect((await runTis(['retention', 'show', projectId], env)).stdout).toMatch(/events\s+3\s/)
  })

  it("expires with the server's pass: old events go, the issue stays with its totals", async () => {
    const { projectId, read } = await seeded(h())
    const before = (await read('/issues')).body.issues
    const oldIssue = before.find((i: { title: string }) => i.title === 'old boom')
    expect(oldIssue.count).toBe(2)
    const report = await h().server.engine.runRetention()
    const mine = report!.projects.find((p) => p.projectId === projectId)
    expect(mine).toMatchObject({ days: 90, events: 2, issues: 1 })
    const { events } = (await read('/events')).body
    expect(events.map((e: { message: string }) => e.message)).toEqual(['new boom'])
    const after = (await read('/issues')).body.issues
    expect(after).toHaveLength(2)
    const stale = after.find((i: { title: string }) => i.title === 'old boom')
    expect(stale).toMatchObject({ count: 2, first_seen_at: oldIssue.first_seen_at })
    expect(stale.events_expired).toBe(true)
    const fresh = after.find((i: { title: string }) => i.title === 'new boom')
    expect(fresh.events_expired).toBe(false)
  })
}

describeOnPglite('retention', describeRetention, () => ({ ...RETENTION_TEST_ENV }))

// PostgreSQL only: `tis prune` is a second process on the server's database, which an embedded
// PGlite (open in the server alone) cannot have.
describeOnPostgres(
  'tis prune',
  (h) => {
    it('says what would go with --dry-run, then deletes it (a second process on PostgreSQL)', async () => {
      const harness = h()
      const { projectId, read } = await seeded(harness)
      const tis = async (...args: string[]) => {
        const out: string[] = []
        const code = await runCli(args, {
          env: { ...SUITE_ENV, ...RETENTION_TEST_ENV, DATABASE_URL: harness.databaseUrl ?? '' },
          stdout: (t) => out.push(t),
          stderr: (t) => out.push(t),
        })
        return { code, text: out.join('') }
      }
      // Expiry acts on what the projection has applied: read (the read barrier) first.
      expect((await read('/events')).body.events).toHaveLength(3)
      const dry = await tis('prune', '--dry-run', '--project', projectId)
      expect(dry.code, dry.text).toBe(0)
      expect(dry.text).toMatch(
        /Dry run: would delete 2 events, 0 spans, 0 check-ins, 0 source-map uploads/,
      )
      expect((await read('/events')).body.events).toHaveLength(3)
      expect(dry.text).toContain(`${projectId}  90 days`)
      const done = await tis('prune', '--project', projectId, '--json')
      expect(JSON.parse(done.text).projects[0]).toMatchObject({
        projectId,
        events: 2,
        issues: 1,
        artifactBundles: 0,
      })
      expect((await read('/events')).body.events).toHaveLength(1)
    })
  },
  () => ({ ...RETENTION_TEST_ENV }),
)
