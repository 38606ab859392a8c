import { describe, expect, it } from 'vitest'
import { runAgainstFakeServer } from './fake-server'
import { EXIT } from './run'

const PROJECT_ID = '01a203af-ac77-79d4-9708-1fd9c9d94c22'
const VERSION = 'shop@1.0.0+build 7'
const BASE = `http://tis.test/api/v1/projects/${PROJECT_ID}/releases`

const release = (over: object = {}) => ({
  version: VERSION,
  environment: null,
  first_seen_at: '2026-06-01T10:00:00.000Z',
  last_seen_at: '2026-06-01T12:00:00.000Z',
  sessions: { total: 200, healthy: 189, errored: 5, crashed: 3, abnormal: 3 },
  users: { total: 3, crashed: 1 },
  crash_free_sessions: 0.985,
  crash_free_users: 2 / 3,
  adoption: 200 / 201,
  ...over,
})
const LIST = {
  releases: [
    release(),
    release({
      version: 'shop@0.9',
      environment: 'staging',
      sessions: { total: 0, healthy: 0, errored: 0, crashed: 0, abnormal: 0 },
      users: { total: 0, crashed: 0 },
      crash_free_sessions: null,
      crash_free_users: null,
      adoption: null,
    }),
  ],
  next_cursor: 'n1',
}
const DETAIL = {
  release: {
    ...release({ environment: 'production' }),
    since: '2026-05-02T12:00:00.000Z',
    until: '2026-06-01T12:00:00.000Z',
    interval_seconds: 21600,
    series: [{ at: '2026-06-01T06:00:00.000Z', sessions: 200, crashed: 3, errored: 5 }],
    new_issues: [
      {
        id: 'issue-1',
        title: 'TypeError: release boom',
        status: 'unresolved',
        count: 4,
        level: 'error',
        last_seen_at: '2026-06-01T11:00:00.000Z',
      },
    ],
    deployments: [
      {
        deployed_at: '2026-06-01T09:00:00.000Z',
        environment: 'production',
        release: VERSION,
        commit_sha: 'abcdef1234567890',
        branch: 'main',
        repository: 'acme/shop',
        pull_request_url: null,
      },
    ],
  },
}

async function run(argv: string[], answer: { status: number; body: unknown }) {
  return runAgainstFakeServer(argv, answer, { TIS_TOKEN: 'tis_user_t', TIS_URL: 'http://tis.test' })
}

describe('tis releases list', () => {
  it('sends the filters and prints the rates, adoption and counts as a table', async () => {
    const r = await run(
      [
        'releases',
        'list',
        '--project',
        PROJECT_ID,
        '--environment',
        'production',
        '--since',
        '2026-05-01T00:00:00Z',
        '--limit',
        '2',
      ],
      { status: 200, body: LIST },
    )
    expect(r.code).toBe(EXIT.ok)
    expect(r.sent.map((s) => [s.method, s.url])).toEqual([
      ['GET', `${BASE}?environment=production&since=2026-05-01T00%3A00%3A00Z&limit=2`],
    ])
    expect(r.sent[0]?.headers['Authorization']).toBe('Bearer tis_user_t')
    const [header, first, second] = r.stdout.split('\n')
    expect(header).toMatch(
      /^VERSION\s+ENVIRONMENT\s+CRASH-FREE SESSIONS\s+CRASH-FREE USERS\s+ADOPTION\s+SESSIONS\s+USERS\s+LAST SEEN$/,
    )
    // 2/3 is rounded down: one crash never shows as a better rate than it is.
    expect(first).toMatch(
      /^shop@1\.0\.0\+build 7\s+all\s+98\.50%\s+66\.66%\s+99\.5%\s+200\s+3\s+2026-06-01T12:00:00\.000Z$/,
    )
    expect(second).toMatch(/^shop@0\.9\s+staging\s+-\s+-\s+-\s+0\s+0\s+/)
    expect(r.stdout).toContain('More: repeat with --cursor n1')
  })

  it("prints the API's JSON with --json", async () => {
    const r = await run(['releases', 'list', '--project', PROJECT_ID, '--json'], {
      status: 200,
      body: LIST,
    })
    expect(r.code).toBe(EXIT.ok)
    expect(JSON.parse(r.stdout)).toEqual(LIST)
    expect(r.sent[0]?.url).toBe(BASE)
  })

  it('needs --project (a usage error, nothing sent)', async () => {
    const r = await run(['releases', 'list'], { status: 200, body: LIST })
    expect(r.code).toBe(EXIT.usage)
    expect(r.stderr).toContain('releases list needs --project <project_id>')
    expect(r.sent).toEqual([])
  })
})

describe('tis releases show', () => {
  it("encodes the version and prints the release's health, new issues and deployments", async () => {
    const r = await run(
      ['releases', 'show', VERSION, '--project', PROJECT_ID, '--environment', 'production'],
      { status: 200, body: DETAIL },
    )
    expect(r.code).toBe(EXIT.ok)
    expect(r.sent.map((s) => s.url)).toEqual([
      `${BASE}/shop%401.0.0%2Bbuild%207?environment=production`,
    ])
    for (const line of [
      'environment:          production',
      'crash-free sessions:  98.50%',
      'crash-free users:     66.66% (1 of 3 users crashed)',
      'adoption:             99.5% (of the sessions of the last 24 hours)',
      'sessions:             200 (healthy 189, errored 5, crashed 3, abnormal 3)',
      'window:               2026-05-02T12:00:00.000Z to 2026-06-01T12:00:00.000Z',
    ]) {
      expect(r.stdout).toContain(line)
    }
    const issues = r.stdout.slice(r.stdout.indexOf('New issues:'), r.stdout.indexOf('Deployments:'))
    expect(issues).toMatch(/issue-1\s+unresolved\s+4\s+.*TypeError: release boom/)
    const deployments = r.stdout.slice(r.stdout.indexOf('Deployments:'))
    expect(deployments).toMatch(
      /production\s+shop@1\.0\.0\+build 7\s+abcdef123456\s+main\s+acme\/shop/,
    )
  })

  it('reports an unknown version with exit 1 and the API message', async () => {
    const r = await run(['releases', 'show', 'nope', '--project', PROJECT_ID], {
      status: 404,
      body: { error: 'Not found' },
    })
    expect(r.code).toBe(EXIT.api)
    expect(r.stderr).toContain('tis: Not found')
  })

  it('needs the version and --project', async () => {
    expect((await run(['releases', 'show', '--project', PROJECT_ID], DETAIL_OK)).code).toBe(
      EXIT.usage,
    )
    const r = await run(['releases', 'show', VERSION], DETAIL_OK)
    expect(r.code).toBe(EXIT.usage)
    expect(r.stderr).toContain('releases show needs --project <project_id>')
    expect(r.sent).toEqual([])
  })
})

const DETAIL_OK = { status: 200, body: DETAIL }
