import { describe, expect, it } from 'vitest'
import { runAgainstFakeServer } from './fake-server'
import { EXIT, runCli } from './run'

const PROJECT = {
  id: '01a203af-ac77-79d4-9708-1fd9c9d94c22',
  name: 'shop',
  integration_kind: 'node',
  status: 'active',
  owner_id: '01a203af-0000-7000-8000-000000000000',
  created_at: '2026-01-01T00:00:00.000Z',
  archived_at: null,
}

/** Runs the CLI against a fake server answering `status` and `body` to every request. */
const run = (
  argv: string[],
  answer: { status: number; body?: unknown } = { status: 200, body: {} },
  env: Record<string, string> = { TIS_TOKEN: 'tis_user_t' },
) => runAgainstFakeServer(argv, answer, env)

describe('tis CLI', () => {
  it.each([
    [['users', 'create', 'a@b.c'], 'POST', '/api/v1/users', { user: { email: 'a@b.c' } }],
    [
      ['projects', 'create', 'shop', '--kind', 'node'],
      'POST',
      '/api/v1/projects',
      { project: { name: 'shop', integration_kind: 'node' } },
    ],
    [['projects', 'list'], 'GET', '/api/v1/projects', undefined],
    [['projects', 'show', 'p1'], 'GET', '/api/v1/projects/p1', undefined],
    [['projects', 'archive', 'p1'], 'POST', '/api/v1/projects/p1/archive', undefined],
    [['projects', 'restore', 'p1'], 'POST', '/api/v1/projects/p1/restore', undefined],
    [['keys', 'create', 'p1'], 'POST', '/api/v1/projects/p1/api_keys', undefined],
    [
      ['keys', 'create', 'p1', '--name', 'ci'],
      'POST',
      '/api/v1/projects/p1/api_keys',
      { api_key: { name: 'ci' } },
    ],
    [['keys', 'list', 'p1'], 'GET', '/api/v1/projects/p1/api_keys', undefined],
    [['keys', 'revoke', 'p1', 'k/1'], 'DELETE', '/api/v1/projects/p1/api_keys/k%2F1', undefined],
    [['members', 'list', 'p1'], 'GET', '/api/v1/projects/p1/members', undefined],
    [
      ['members', 'add', 'p1', 'x@y.z'],
      'POST',
      '/api/v1/projects/p1/members',
      { member: { email: 'x@y.z' } },
    ],
    [['issues', 'p1'], 'GET', '/api/v1/projects/p1/issues', undefined],
    [
      ['issues', 'p1', '--status', 'all', '--q', 'a b', '--limit', '5'],
      'GET',
      '/api/v1/projects/p1/issues?status=all&q=a+b&limit=5',
      undefined,
    ],
    [
      ['issues', 'p1', '--query', 'is:resolved "a b"', '--sort', 'times_seen'],
      'GET',
      '/api/v1/projects/p1/issues?query=is%3Aresolved+%22a+b%22&sort=times_seen',
      undefined,
    ],
    [
      ['events', 'p1', '--query', 'level:error'],
      'GET',
      '/api/v1/projects/p1/events?query=level%3Aerror',
      undefined,
    ],
    [['issues', 'show', 'p1', 'i1'], 'GET', '/api/v1/projects/p1/issues/i1', undefined],
    [
      ['issues', 'resolve', 'p1', 'i1'],
      'PATCH',
      '/api/v1/projects/p1/issues/i1',
      { issue: { status: 'resolved' } },
    ],
    [
      ['issues', 'ignore', 'p1', 'i1'],
      'PATCH',
      '/api/v1/projects/p1/issues/i1',
      { issue: { status: 'ignored' } },
    ],
    [
      ['issues', 'reopen', 'p1', 'i1'],
      'PATCH',
      '/api/v1/projects/p1/issues/i1',
      { issue: { status: 'unresolved' } },
    ],
    [
      ['events', 'p1', '--event-type', 'error', '--trace-id', 't1', '--cursor', 'c'],
      'GET',
      '/api/v1/projects/p1/events?event_type=error&trace_id=t1&cursor=c',
      undefined,
    ],
    [['monitors', 'p1'], 'GET', '/api/v1/projects/p1/monitors', undefined],
    [
      ['monitors', 'p1', '--environment', 'prod', '--limit', '2'],
      'GET',
      '/api/v1/projects/p1/monitors?environment=prod&limit=2',
      undefined,
    ],
    [
      ['deployments', 'p1', '--repository', 'acme/shop', '--release', 'v1'],
      'GET',
      '/api/v1/projects/p1/deployments?release=v1&repository=acme%2Fshop',
      undefined,
    ],
    [['event', 'p1', 'e/1'], 'GET', '/api/v1/projects/p1/events/e%2F1', undefined],
    [['transactions', 'p1'], 'GET', '/api/v1/projects/p1/transactions', undefined],
    [
      ['transactions', 'p1', '--since', '2026-01-01T00:00:00Z', '--environment', 'prod'],
      'GET',
      '/api/v1/projects/p1/transactions?since=2026-01-01T00%3A00%3A00Z&environment=prod',
      undefined,
    ],
    [
      ['metrics', 'p1', 'db query', '--interval', '5m', '--release', 'v1'],
      'GET',
      '/api/v1/projects/p1/metrics?name=db+query&interval=5m&release=v1',
      undefined,
    ],
    [
      ['traces', 'p1', '--kind', 'internal', '--q', 'GET', '--cursor', 'c'],
      'GET',
      '/api/v1/projects/p1/traces?kind=internal&q=GET&cursor=c',
      undefined,
    ],
    [['trace', 'p1', 'abc'], 'GET', '/api/v1/projects/p1/traces/abc', undefined],
  ])('tis %j sends %s %s', async (argv, method, path, body) => {
    const { sent } = await run([...argv, '--json'])
    expect(sent).toEqual([
      {
        method,
        url: `http://localhost:3000${path}`,
        headers: expect.objectContaining({ Authorization: 'Bearer tis_user_t' }),
        body,
      },
    ])
  })

  it('prints issues and events as tables with the next-page hint', async () => {
    const issue = {
      id: 'i1',
      fingerprint: null,
      title: 'Boom\nat x',
      level: 'error',
      status: 'unresolved',
      count: 3,
      users: 2,
      first_seen_at: '2026-01-01T00:00:00.000Z',
      last_seen_at: '2026-01-02T00:00:00.000Z',
      first_release: null,
      last_release: 'v2',
      latest_event_id: null,
      regression_count: 1,
      regressed_in_release: 'v2',
    }
    const issues = await run(['issues', 'p1'], {
      status: 200,
      body: { issues: [issue], next_cursor: 'abc' },
    })
    expect(issues.stdout).toContain('ID  STATUS      COUNT  USERS  LAST SEEN')
    expect(issues.stdout).toContain(
      'i1  unresolved  3      2      2026-01-02T00:00:00.000Z  error  Boom\n',
    )
    expect(issues.stdout).toContain('More: repeat with --cursor abc')
    const shown = await run(['issues', 'show', 'p1', 'i1'], { status: 200, body: { issue } })
    expect(shown.stdout).toContain('regressions:  1 (last in v2)')
    const events = await run(['events', 'p1'], {
      status: 200,
      body: {
        events: [
          {
            id: 'e1',
            event_type: 'log',
            level: null,
            message: 'hello',
            occurred_at: '2026-01-01T00:00:00.000Z',
            issue_id: null,
          },
        ],
        next_cursor: null,
      },
    })
    expect(events.stdout).toBe(
      'ID  OCCURRED                  TYPE  LEVEL  MESSAGE\ne1  2026-01-01T00:00:00.000Z  log   -      hello\n',
    )
  })

  it('prints monitors and deployments as tables', async () => {
    const monitors = await run(['monitors', 'p1'], {
      status: 200,
      body: {
        monitors: [
          {
            slug: 'backup',
            environment: 'prod',
            status: 'missed',
            last_status: 'ok',
            last_check_in_at: '2026-01-01T00:00:00.000Z',
            expected_interval_seconds: 60,
            next_expected_at: '2026-01-01T00:01:00.000Z',
          },
        ],
        next_cursor: 'm1',
      },
    })
    expect(monitors.stdout).toBe(
      [
        'SLUG    ENVIRONMENT  STATUS  LAST  LAST CHECK-IN             INTERVAL  NEXT EXPECTED',
        'backup  prod         missed  ok    2026-01-01T00:00:00.000Z  60s       2026-01-01T00:01:00.000Z',
        'More: repeat with --cursor m1',
        '',
      ].join('\n'),
    )
    const deployments = await run(['deployments', 'p1'], {
      status: 200,
      body: {
        deployments: [
          {
            repository: 'acme/shop',
            environment: 'prod',
            release: 'v1',
            commit_sha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
            branch: null,
            deployed_at: '2026-01-01T00:00:00.000Z',
            pull_request_url: 'https://github.com/acme/shop/pull/1',
          },
        ],
        next_cursor: null,
      },
    })
    expect(deployments.stdout).toContain('DEPLOYED                  ENVIRONMENT  RELEASE  COMMIT')
    expect(deployments.stdout).toContain(
      '2026-01-01T00:00:00.000Z  prod         v1       a1b2c3d4e5f6  -       acme/shop   https://github.com/acme/shop/pull/1\n',
    )
    expect(deployments.stdout).not.toContain('More:')
  })

  it('prints one event with its issue, deployment links and related events', async () => {
    const event = {
      id: 'e1',
      event_type: 'error',
      level: 'error',
      message: 'card declined',
      fingerprint: null,
      occurred_at: '2026-01-01T00:00:00.000Z',
      issue_id: 'i1',
      environment: 'prod',
      release: 'v7',
      trace_id: 't1',
      request_id: null,
      session_id: null,
    }
    const detail = await run(['event', 'p1', 'e1'], {
      status: 200,
      body: {
        event,
        issue: { id: 'i1', status: 'unresolved', count: 3, title: 'card declined\nat pay()' },
        deployment: {
          repository: 'acme/shop',
          environment: 'prod',
          release: 'v7',
          commit_sha: 'a1b2c3',
          branch: 'main',
          release_tag: null,
          deployed_at: '2025-12-31T00:00:00.000Z',
          pull_request_url: 'https://github.com/acme/shop/pull/1',
          release_url: null,
          compare_url: 'https://github.com/acme/shop/compare/v6...v7',
          workflow_run_url: null,
          deployment_url: null,
        },
        related: [{ ...event, id: 'e2', event_type: 'log', level: null, message: 'paying' }],
      },
    })
    expect(detail.stdout).toBe(
      [
        'id:           e1',
        'type:         error',
        'occurred:     2026-01-01T00:00:00.000Z',
        'level:        error',
        'message:      card declined',
        'environment:  prod',
        'release:      v7',
        'trace:        t1',
        'issue:        i1 unresolved, count 3: card declined',
        'deployment:   v7 to prod at 2025-12-31T00:00:00.000Z',
        '  repository:   acme/shop',
        '  commit:       a1b2c3',
        '  branch:       main',
        '  pull request: https://github.com/acme/shop/pull/1',
        '  compare:      https://github.com/acme/shop/compare/v6...v7',
        '',
        'related events:',
        'ID  OCCURRED                  TYPE  LEVEL  MESSAGE',
        'e2  2026-01-01T00:00:00.000Z  log   -      paying',
        '',
      ].join('\n'),
    )
    const bare = await run(['event', 'p1', 'e1'], {
      status: 200,
      body: { event, issue: null, deployment: null, related: [] },
    })
    expect(bare.stdout).toContain('issue:        -\ndeployment:   -\n\nrelated events:\n(none)\n')
  })

  it('prints transactions and metric buckets as tables', async () => {
    const transactions = await run(['transactions', 'p1'], {
      status: 200,
      body: {
        since: '2026-01-01T00:00:00.000Z',
        until: '2026-01-02T00:00:00.000Z',
        transactions: [
          {
            name: 'GET /orders/:id',
            count: 12,
            error_count: 2,
            error_rate: 2 / 12,
            p50_ms: 68.5,
            p95_ms: 1000.3333333,
            p99_ms: 1187.2,
            avg_ms: 2393.2916666,
          },
        ],
      },
    })
    expect(transactions.stdout).toBe(
      [
        'From 2026-01-01T00:00:00.000Z to 2026-01-02T00:00:00.000Z',
        'NAME             COUNT  ERRORS  ERROR RATE  P50 MS  P95 MS  P99 MS  AVG MS',
        'GET /orders/:id  12     2       16.7%       68.5    1000.3  1187.2  2393.3',
        '',
      ].join('\n'),
    )
    const metrics = await run(['metrics', 'p1', 'db.query'], {
      status: 200,
      body: {
        name: 'db.query',
        since: '2026-01-01T00:00:00.000Z',
        until: '2026-01-01T00:10:00.000Z',
        interval_seconds: 300,
        buckets: [
          { start: '2026-01-01T00:00:00.000Z', count: 2, sum: 14, min: 4, max: 10, avg: 7 },
          {
            start: '2026-01-01T00:05:00.000Z',
            count: 0,
            sum: null,
            min: null,
            max: null,
            avg: null,
          },
        ],
      },
    })
    expect(metrics.stdout).toBe(
      [
        'db.query: 300 s buckets from 2026-01-01T00:00:00.000Z to 2026-01-01T00:10:00.000Z',
        'START                     COUNT  SUM  MIN  MAX  AVG',
        '2026-01-01T00:00:00.000Z  2      14   4    10   7',
        '2026-01-01T00:05:00.000Z  0      -    -    -    -',
        '',
      ].join('\n'),
    )
  })

  it('prints root spans as a table and a trace as an indented tree with its events', async () => {
    const span = (name: string, kind: string, start: string, duration: number | null) => ({
      id: `id-${name}`,
      trace_id: 't1',
      span_id: null,
      parent_span_id: null,
      name,
      kind,
      started_at: `2026-01-01T00:00:${start}Z`,
      ended_at: null,
      duration_ms: duration,
    })
    const traces = await run(['traces', 'p1'], {
      status: 200,
      body: { traces: [span('GET /checkout', 'server', '00.000', 2000)], next_cursor: 'n1' },
    })
    expect(traces.stdout).toBe(
      [
        'STARTED                   DURATION  KIND    TRACE ID  NAME',
        '2026-01-01T00:00:00.000Z  2000 ms   server  t1        GET /checkout',
        'More: repeat with --cursor n1',
        '',
      ].join('\n'),
    )
    const root = span('GET /checkout', 'server', '00.000', 2000)
    const trace = await run(['trace', 'p1', 't1'], {
      status: 200,
      body: {
        trace_id: 't1',
        root,
        duration_ms: 2000,
        started_at: '2026-01-01T00:00:00.000Z',
        ended_at: '2026-01-01T00:00:02.000Z',
        span_count: 3,
        truncated: false,
        spans: [
          { ...root, depth: 0 },
          { ...span('POST stripe', 'http', '00.500', 1000), depth: 1 },
          { ...span('tls handshake', 'internal', '00.600', null), depth: 2 },
        ],
        events: [
          {
            id: 'e1',
            event_type: 'error',
            level: 'error',
            message: 'card declined',
            occurred_at: '2026-01-01T00:00:01.000Z',
            issue_id: 'i1',
          },
        ],
      },
    })
    expect(trace.stdout).toBe(
      [
        'trace:    t1',
        'root:     GET /checkout (server), 2000 ms',
        'started:  2026-01-01T00:00:00.000Z',
        'ended:    2026-01-01T00:00:02.000Z',
        'spans:    3',
        '',
        'GET /checkout (server)  +0 ms  2000 ms',
        '  POST stripe (http)  +500 ms  1000 ms',
        '    tls handshake (internal)  +600 ms  -',
        '',
        'events:',
        'ID  OCCURRED                  TYPE   LEVEL  MESSAGE',
        'e1  2026-01-01T00:00:01.000Z  error  error  card declined',
        '',
      ].join('\n'),
    )
  })

  it('uses --url over TIS_URL over the default', async () => {
    const env = { TIS_TOKEN: 't', TIS_URL: 'http://env:1/' }
    expect((await run(['projects', 'list', '--json'], undefined, env)).sent[0]?.url).toBe(
      'http://env:1/api/v1/projects',
    )
    const flagged = await run(
      ['projects', 'list', '--json', '--url', 'http://flag:2'],
      undefined,
      env,
    )
    expect(flagged.sent[0]?.url).toBe('http://flag:2/api/v1/projects')
  })

  it("prints human-readable text by default and the API's JSON with --json", async () => {
    const answer = { status: 200, body: { projects: [PROJECT] } }
    const human = await run(['projects', 'list'], answer)
    expect(human.stdout).toMatch(/^ID\s+NAME\s+KIND\s+STATUS\s+CREATED\n/)
    expect(human.stdout).toContain(`${PROJECT.id}  shop  node  active  2026-01-01`)
    const json = await run(['projects', 'list', '--json'], answer)
    expect(JSON.parse(json.stdout)).toEqual(answer.body)
  })

  it('prints the key token once with a curl to try it', async () => {
    const body = {
      api_key: { id: 'k1', name: 'default', created_at: 'x', revoked_at: null },
      token: 'tis_abc',
    }
    const { stdout, code } = await run(['keys', 'create', 'p1'], { status: 201, body })
    expect(code).toBe(EXIT.ok)
    expect(stdout).toContain('Token (shown only now): tis_abc')
    expect(stdout).toContain("-H 'Authorization: Bearer tis_abc'")
  })

  it("prints each of the API's error messages to stderr and exits 1", async () => {
    const body = { errors: ["name can't be blank", 'integration_kind is not included'] }
    const { code, stderr, stdout } = await run(['projects', 'create', ' ', '--kind', 'x'], {
      status: 422,
      body,
    })
    expect(code).toBe(EXIT.api)
    expect(stderr).toBe("tis: name can't be blank\ntis: integration_kind is not included\n")
    expect(stdout).toBe('')
  })

  it('hints at TIS_TOKEN on 401', async () => {
    const { code, stderr } = await run(['projects', 'list'], {
      status: 401,
      body: { error: 'Unauthorized' },
    })
    expect(code).toBe(EXIT.api)
    expect(stderr).toContain('tis: Unauthorized\n')
    expect(stderr).toContain('TIS_TOKEN')
  })

  it('reports an unreachable server as an API error', async () => {
    const code = await runCli(['projects', 'list'], {
      env: { TIS_TOKEN: 't' },
      fetch: (async () => {
        throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })
      }) as typeof fetch,
      stdout: () => {},
      stderr: (t) => expect(t).toContain('cannot reach http://localhost:3000 (ECONNREFUSED)'),
    })
    expect(code).toBe(EXIT.api)
  })

  it.each([
    [['projects', 'create', 'shop'], 'needs --kind'],
    [['projects', 'show'], 'usage: tis projects show <project_id>'],
    [['keys', 'revoke', 'p1'], 'usage: tis keys revoke <project_id> <key_id>'],
    [['projects', 'list', 'extra'], 'usage: tis projects list'],
    [['frobnicate'], 'unknown command: frobnicate'],
    [['projects', 'list', '--bogus'], "Unknown option '--bogus'"],
    [['keys', 'list', 'p1', '--kind'], "Option '--kind <value>' argument missing"],
    [['metrics', 'p1'], 'usage: tis metrics <project_id> <name>'],
    [['trace', 'p1'], 'usage: tis trace <project_id> <trace_id>'],
    [['event', 'p1'], 'usage: tis event <project_id> <event_id>'],
  ])('tis %j is a usage error (exit 2)', async (argv, message) => {
    const { code, stderr, sent } = await run(argv)
    expect(code).toBe(EXIT.usage)
    expect(stderr).toContain(message)
    expect(sent).toHaveLength(0)
  })

  it('needs TIS_TOKEN for API commands', async () => {
    const { code, stderr } = await run(['projects', 'list'], undefined, {})
    expect(code).toBe(EXIT.usage)
    expect(stderr).toContain('TIS_TOKEN is not set')
  })

  it('prints help for `help` and --help (exit 0), and to stderr with no command (exit 2)', async () => {
    for (const argv of [['help'], ['--help'], ['-h']]) {
      const { code, stdout } = await run(argv, undefined, {})
      expect(code).toBe(EXIT.ok)
      expect(stdout).toContain('projects create <name> --kind <integration_kind>')
      expect(stdout).toContain('keys revoke <project_id> <key_id>')
    }
    const none = await run([], undefined, {})
    expect(none.code).toBe(EXIT.usage)
    expect(none.stderr).toContain('Usage: tis <command>')
  })
})
