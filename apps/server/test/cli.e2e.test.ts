import {
  ADMIN_TOKEN,
  call,
  createClient,
  type Harness,
  openPage,
  runTis,
  serverFetcher,
  signIn,
  startPgliteHarness,
} from '@tis/test-utils/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The `tis` CLI as a person runs it: a child process talking HTTP to a running server.
describe('tis CLI against a running server', () => {
  let harness: Harness
  let env: Record<string, string>
  beforeAll(async () => {
    harness = await startPgliteHarness()
    env = { TIS_TOKEN: ADMIN_TOKEN, TIS_URL: harness.url }
  })
  afterAll(() => harness?.close())

  const send = (key: string) =>
    call(harness.url, 'POST', '/api/v1/ingest_events', {
      apiKey: key,
      json: { event: { event_type: 'error', message: 'from the CLI test' } },
    })

  it('creates a project and a key, lists and revokes it; the key stops working', async () => {
    const created = await runTis(['projects', 'create', 'cli-shop', '--kind', 'node'], env)
    expect(created.stderr).toBe('')
    expect(created.code).toBe(0)
    const projectId = created.stdout.match(/id: ([0-9a-f-]{36})/)?.[1]
    expect(projectId).toBeDefined()

    const key = await runTis(['keys', 'create', projectId!, '--name', 'ci', '--json'], env)
    expect(key.code).toBe(0)
    const { api_key: apiKey, token } = JSON.parse(key.stdout)
    expect(apiKey.name).toBe('ci')
    expect((await send(token)).status).toBe(201)

    const listed = await runTis(['keys', 'list', projectId!], env)
    expect(listed.stdout).toMatch(new RegExp(`${apiKey.id}\\s+ci\\s+\\S+\\s+-`))
    expect(listed.stdout).not.toContain(token)

    const shown = await runTis(['projects', 'show', projectId!], env)
    expect(shown.stdout).toContain('name:      cli-shop')

    const revoked = await runTis(['keys', 'revoke', projectId!, apiKey.id], env)
    expect(revoked).toMatchObject({ code: 0, stdout: `Revoked API key ${apiKey.id}.\n` })
    expect((await send(token)).status).toBe(401)
  })

  it('lists issues and events, and resolves an issue', async () => {
    const created = await runTis(
      ['projects', 'create', 'cli-issues', '--kind', 'node', '--json'],
      env,
    )
    const { project } = JSON.parse(created.stdout)
    const key = JSON.parse((await runTis(['keys', 'create', project.id, '--json'], env)).stdout)
    expect((await send(key.token)).status).toBe(201)
    expect((await send(key.token)).status).toBe(201)

    const issues = await runTis(['issues', project.id], env)
    expect(issues.code).toBe(0)
    const issueId = issues.stdout.match(/^([0-9a-f-]{36})\s+unresolved\s+2\s/m)?.[1]
    expect(issueId, issues.stdout).toBeDefined()
    expect(issues.stdout).toContain('from the CLI test')

    const resolved = await runTis(['issues', 'resolve', project.id, issueId!], env)
    expect(resolved.stdout).toContain('status:       resolved')
    expect((await runTis(['issues', project.id], env)).stdout).toBe('(none)\n')
    const all = JSON.parse(
      (await runTis(['issues', project.id, '--status', 'all', '--json'], env)).stdout,
    )
    expect(all.issues.map((i: { id: string }) => i.id)).toEqual([issueId])
    const searched = await runTis(
      ['issues', project.id, '--query', 'is:resolved times_seen:2'],
      env,
    )
    expect(searched.stdout).toContain(issueId)
    const unknown = await runTis(['issues', project.id, '--query', 'browser:chrome'], env)
    expect(unknown).toMatchObject({ code: 1 })
    expect(unknown.stderr).toContain('tis: query has an unknown key "browser" in browser:chrome')

    const events = await runTis(
      ['events', project.id, '--event-type', 'error', '--limit', '1'],
      env,
    )
    expect(events.stdout).toMatch(/^ID\s+OCCURRED\s+TYPE\s+LEVEL\s+MESSAGE\n/)
    expect(events.stdout).toContain('More: repeat with --cursor ')

    const bad = await runTis(['events', project.id, '--since', 'yesterday'], env)
    expect(bad).toMatchObject({ code: 1 })
    expect(bad.stderr).toContain('tis: since must be an RFC 3339 date-time')
  })

  it('lists monitors and deployments', async () => {
    const created = await runTis(['projects', 'create', 'cli-ops', '--kind', 'node', '--json'], env)
    const { project } = JSON.parse(created.stdout)
    const key = JSON.parse((await runTis(['keys', 'create', project.id, '--json'], env)).stdout)
    const post = (path: string, json: unknown) =>
      call(harness.url, 'POST', path, { apiKey: key.token, json })
    expect(
      (await post('/api/v1/check_ins', { check_in: { slug: 'backup', environment: 'prod' } }))
        .status,
    ).toBe(201)
    const deployment = {
      repository: 'acme/shop',
      environment: 'prod',
      release: 'v7',
      commit_sha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
    }
    expect((await post('/api/v1/deployments', { deployment })).status).toBe(201)

    const monitors = await runTis(['monitors', project.id], env)
    expect(monitors.code).toBe(0)
    expect(monitors.stdout).toMatch(/^SLUG\s+ENVIRONMENT\s+STATUS/)
    expect(monitors.stdout).toMatch(/\nbackup\s+prod\s+ok\s+ok\s/)
    const deployments = await runTis(['deployments', project.id, '--environment', 'prod'], env)
    expect(deployments.stdout).toMatch(/\s+prod\s+v7\s+a1b2c3d4e5f6\s+-\s+acme\/shop\s+-\n/)
    const json = JSON.parse((await runTis(['deployments', project.id, '--json'], env)).stdout)
    expect(json.deployments[0]).toMatchObject(deployment)
    const bad = await runTis(['monitors', project.id, '--limit', '0'], env)
    expect(bad).toMatchObject({ code: 1 })
    expect(bad.stderr).toContain('tis: limit must be a positive integer')
  })

  it("shows a monitor's check-in history by slug, newest first, paged", async () => {
    // Set up over HTTP: each tis run is a child process, and these are not under test here.
    const { projectId, key } = await createClient(harness.url).projectWithKey()
    const project = { id: projectId }
    const checkIn = (fields: Record<string, unknown>) =>
      call(harness.url, 'POST', '/api/v1/check_ins', {
        apiKey: key,
        json: { check_in: { slug: 'nightly', environment: 'prod', ...fields } },
      })
    expect((await checkIn({ occurred_at: '2026-06-01T02:00:00Z', duration_ms: 5300 })).status).toBe(
      201,
    )
    const failed = await call(harness.url, 'POST', '/api/v1/ingest_events', {
      apiKey: key,
      json: {
        event: {
          event_type: 'check_in',
          message: 'nightly failed',
          check_in_slug: 'nightly',
          check_in_status: 'error',
          environment: 'prod',
          release: 'v8',
          trace_id: 'cli-trace',
          occurred_at: '2026-06-02T02:00:00Z',
        },
      },
    })
    expect(failed.status).toBe(201)

    const history = await runTis(['monitors', 'check-ins', 'nightly', '--project', project.id], env)
    expect(history.stderr).toBe('')
    expect(history.stdout).toMatch(/^nightly \(prod\): error; 2 check-ins,/)
    expect(history.stdout).toMatch(
      /\n2026-06-02T02:00:00\.000Z\s+error\s+-\s+prod\s+v8\s+cli-trace\s+event\n2026-06-01T02:00:00\.000Z\s+ok\s+5300 ms\s+prod\s+-\s+-\s+check_in\n$/,
    )
    const first = JSON.parse(
      (
        await runTis(
          ['monitors', 'check-ins', 'nightly', '--project', project.id, '--limit', '1', '--json'],
          env,
        )
      ).stdout,
    )
    expect(first.check_ins.map((c: { status: string }) => c.status)).toEqual(['error'])
    const missing = await runTis(['monitors', 'check-ins', 'weekly', '--project', project.id], env)
    expect(missing).toMatchObject({ code: 1 })
    expect(missing.stderr).toContain('tis: no monitor weekly in project')
  })

  it('shows an event with its issue, deployment and related events', async () => {
    const created = await runTis(
      ['projects', 'create', 'cli-event', '--kind', 'node', '--json'],
      env,
    )
    const { project } = JSON.parse(created.stdout)
    const key = JSON.parse((await runTis(['keys', 'create', project.id, '--json'], env)).stdout)
    const post = (path: string, json: unknown) =>
      call(harness.url, 'POST', path, { apiKey: key.token, json })
    const deployment = {
      repository: 'acme/shop',
      environment: 'prod',
      release: 'v9',
      commit_sha: 'b1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
      pull_request_url: 'https://github.com/acme/shop/pull/9',
    }
    expect((await post('/api/v1/deployments', { deployment })).status).toBe(201)
    const common = { environment: 'prod', release: 'v9', trace_id: 'e'.repeat(32) }
    const log = await post('/api/v1/ingest_events', {
      event: { event_type: 'log', message: 'paying', ...common },
    })
    const error = await post('/api/v1/ingest_events', {
      event: { event_type: 'error', message: 'card declined', ...common },
    })
    expect([log.status, error.status]).toEqual([201, 201])

    const shown = await runTis(['event', project.id, error.body.id], env)
    expect(shown.stderr).toBe('')
    expect(shown.stdout).toContain(`id:           ${error.body.id}\ntype:         error\n`)
    expect(shown.stdout).toMatch(/\nissue: +[0-9a-f-]{36} unresolved, count 1: card declined\n/)
    expect(shown.stdout).toMatch(/\ndeployment: +v9 to prod at /)
    expect(shown.stdout).toContain('  pull request: https://github.com/acme/shop/pull/9\n')
    expect(shown.stdout).toMatch(
      new RegExp(`\nrelated events:\nID.*\n${log.body.id}\\s+\\S+\\s+log\\s`),
    )
    const json = JSON.parse(
      (await runTis(['event', project.id, error.body.id, '--json'], env)).stdout,
    )
    expect(json.deployment).toMatchObject({ release: 'v9', repository: 'acme/shop' })
    const unknown = await runTis(
      ['event', project.id, '0'.repeat(8).concat('-0000-7000-8000-000000000000')],
      env,
    )
    expect(unknown.code).toBe(1)
  })

  it('reads transactions, a metric, root spans and a trace tree', async () => {
    const created = await runTis(
      ['projects', 'create', 'cli-perf', '--kind', 'node', '--json'],
      env,
    )
    const { project } = JSON.parse(created.stdout)
    const key = JSON.parse((await runTis(['keys', 'create', project.id, '--json'], env)).stdout)
    const ingest = async (event: Record<string, unknown>) => {
      const r = await call(harness.url, 'POST', '/api/v1/ingest_events', {
        apiKey: key.token,
        json: { event },
      })
      expect(r.status, r.text).toBe(201)
      return r.body.id as string
    }
    const at = (minute: number, second = 0, ms = 0) =>
      new Date(Date.UTC(2026, 5, 2, 9, minute, second, ms)).toISOString()
    const window = ['--since', at(0), '--until', at(10)]
    for (const [i, duration] of [10, 20, 30, 40].entries()) {
      await ingest({
        event_type: 'transaction',
        message: 'GET /orders',
        transaction_name: 'GET /orders',
        duration_ms: duration,
        occurred_at: at(1, i),
        context: { status_code: i === 3 ? 503 : 200 },
      })
    }
    await ingest({
      event_type: 'metric',
      message: 'queue.depth',
      occurred_at: at(1),
      context: { value: 4 },
    })
    await ingest({
      event_type: 'metric',
      message: 'queue.depth',
      occurred_at: at(2),
      context: { value: 10 },
    })
    const trace = 'c'.repeat(32)
    const span = (fields: Record<string, unknown>) =>
      ingest({ event_type: 'span', trace_id: trace, ...fields })
    await span({
      name: 'GET /orders',
      kind: 'server',
      span_id: 'a000000000000001',
      started_at: at(3),
      duration_ms: 1500,
    })
    await span({
      name: 'SELECT orders',
      kind: 'db',
      span_id: 'a000000000000002',
      parent_span_id: 'a000000000000001',
      started_at: at(3, 0, 200),
      duration_ms: 800,
    })
    await span({
      name: 'decode row',
      kind: 'internal',
      span_id: 'a000000000000003',
      parent_span_id: 'a000000000000002',
      started_at: at(3, 0, 250),
      duration_ms: 5,
    })
    await ingest({
      event_type: 'log',
      message: 'orders listed',
      trace_id: trace,
      occurred_at: at(3, 1),
    })

    const transactions = await runTis(['transactions', project.id, ...window], env)
    expect(transactions.stderr).toBe('')
    expect(transactions.stdout).toBe(
      [
        `From ${at(0)} to ${at(10)}`,
        'NAME         COUNT  ERRORS  ERROR RATE  P50 MS  P95 MS  P99 MS  AVG MS',
        'GET /orders  4      1       25%         25      38.5    39.7    25',
        '',
      ].join('\n'),
    )

    const metric = await runTis(
      ['metrics', project.id, 'queue.depth', ...window, '--interval', '5m'],
      env,
    )
    expect(metric.stdout).toBe(
      [
        `queue.depth: 300 s buckets from ${at(0)} to ${at(10)}`,
        'START                     COUNT  SUM  MIN  MAX  AVG',
        `${at(0)}  2      14   4    10   7`,
        `${at(5)}  0      -    -    -    -`,
        '',
      ].join('\n'),
    )
    const metricJson = JSON.parse(
      (await runTis(['metrics', project.id, 'queue.depth', ...window, '--json'], env)).stdout,
    )
    expect(metricJson).toMatchObject({ name: 'queue.depth', interval_seconds: 60 })
    expect(metricJson.buckets).toHaveLength(10)

    const traces = await runTis(['traces', project.id], env)
    expect(traces.stdout).toBe(
      [
        'STARTED                   DURATION  KIND    TRACE ID                          NAME',
        `${at(3)}  1500 ms   server  ${trace}  GET /orders`,
        '',
      ].join('\n'),
    )

    const tree = await runTis(['trace', project.id, trace], env)
    expect(tree.stderr).toBe('')
    expect(tree.stdout).toContain(
      [
        `trace:    ${trace}`,
        'root:     GET /orders (server), 1500 ms',
        `started:  ${at(3)}`,
        `ended:    ${at(3, 1, 500)}`,
        'spans:    3',
        '',
        'GET /orders (server)  +0 ms  1500 ms',
        '  SELECT orders (db)  +200 ms  800 ms',
        '    decode row (internal)  +250 ms  5 ms',
        '',
        'events:',
        'ID ',
      ].join('\n'),
    )
    expect(tree.stdout).toMatch(/\s+log\s+-\s+orders listed\n$/)
    const treeJson = JSON.parse((await runTis(['trace', project.id, trace, '--json'], env)).stdout)
    expect(treeJson.spans.map((s: { depth: number }) => s.depth)).toEqual([0, 1, 2])

    const missing = await runTis(['trace', project.id, 'f'.repeat(32)], env)
    expect(missing).toMatchObject({ code: 1, stdout: '' })
    const bad = await runTis(['metrics', project.id, 'queue.depth', '--interval', '5w'], env)
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/^tis: interval must be /)
  })

  it('archives and restores a project', async () => {
    const created = await runTis(['projects', 'create', 'cli-old', '--kind', 'ruby', '--json'], env)
    const { project } = JSON.parse(created.stdout)
    const archived = await runTis(['projects', 'archive', project.id], env)
    expect(archived.stdout).toContain('Archived project cli-old')
    const list = await runTis(['projects', 'list'], env)
    expect(list.stdout).toMatch(new RegExp(`${project.id}\\s+cli-old\\s+ruby\\s+archived`))
    const restored = await runTis(['projects', 'restore', project.id], env)
    expect(restored.stdout).toContain(`tis keys create ${project.id}`)
  })

  it('shows, sets (administrators) and clears rate limits', async () => {
    const created = await runTis(
      ['projects', 'create', 'cli-limits', '--kind', 'node', '--json'],
      env,
    )
    const { project } = JSON.parse(created.stdout)
    const shown = await runTis(['limits', 'show', project.id], env)
    expect(shown.stdout).toContain('requests:              25 per window (server default)')
    const set = await runTis(
      ['limits', 'set', project.id, '--requests', '3', '--auth-failures', '9'],
      env,
    )
    expect(set.code).toBe(0)
    expect(set.stdout).toContain('requests:              3 per window (project override)')
    expect(set.stdout).toContain('period_seconds:        3600 (server default)')
    expect(set.stdout).toContain('auth_failure_requests: 9 per minute per IP (project override)')
    const invalid = await runTis(['limits', 'set', project.id, '--requests', 'lots'], env)
    expect(invalid.code).toBe(1)
    expect(invalid.stderr).toMatch(/^tis: requests /)
    const cleared = await runTis(['limits', 'set', project.id, '--json'], env)
    expect(JSON.parse(cleared.stdout).rate_limit.overrides).toEqual({
      requests: null,
      period_seconds: null,
      auth_failure_requests: null,
    })
  })

  it('lists and revokes mobile tokens', async () => {
    const created = await runTis(['projects', 'create', 'cli-app', '--kind', 'ios', '--json'], env)
    const { project } = JSON.parse(created.stdout)
    const key = JSON.parse((await runTis(['keys', 'create', project.id, '--json'], env)).stdout)
    const minted = await call(harness.url, 'POST', '/api/v1/mobile_ingest_tokens', {
      apiKey: key.token,
      json: { mobile_ingest_token: { platform: 'ios', service: 'com.acme', environment: 'prod' } },
    })
    expect(minted.status).toBe(201)
    const listed = await runTis(['mobile-tokens', 'list', project.id, '--json'], env)
    const [token] = JSON.parse(listed.stdout).mobile_tokens
    expect(token).toMatchObject({ platform: 'ios', service: 'com.acme' })
    const table = await runTis(['mobile-tokens', 'list', project.id], env)
    expect(table.stdout).toMatch(new RegExp(`${token.id}\\s+ios\\s+com.acme\\s+prod`))
    expect(table.stdout).not.toContain(minted.body.token)
    const revoked = await runTis(['mobile-tokens', 'revoke', project.id, token.id], env)
    expect(revoked.stdout).toBe(`Revoked mobile token ${token.id}.\n`)
    expect((await runTis(['mobile-tokens', 'list', project.id], env)).stdout).toBe('(none)\n')
  })

  it('lists sessions, signs out everywhere and rotates the access token (printed once)', async () => {
    const user = await createClient(harness.url).createUser()
    const mine = { TIS_URL: harness.url, TIS_TOKEN: user.token }
    const browser = await signIn(serverFetcher(harness.url), user.token)
    const listed = await runTis(['users', 'sessions'], mine)
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(/^ID\s+SIGNED IN\s+LAST SEEN\s+ENDS\s+ADDRESS\s+BROWSER\n\S+/)
    expect(listed.stdout).not.toContain(browser.cookie.slice('tis_session='.length))
    const out = await runTis(['users', 'sign-out-everywhere'], mine)
    expect(out).toMatchObject({ code: 0, stdout: 'Signed out everywhere: ended 1 session.\n' })
    expect((await openPage(serverFetcher(harness.url), '/projects', browser)).status).toBe(303)

    const rotated = await runTis(['users', 'rotate-token'], mine)
    expect(rotated.code).toBe(0)
    const fresh = /New access token \(shown only now\): (tis_user_[0-9a-f]{48})\n/.exec(
      rotated.stdout,
    )?.[1]
    expect(fresh).toBeDefined()
    const old = await runTis(['projects', 'list'], mine)
    expect(old.code).toBe(1)
    expect(old.stderr).toContain('tis: Unauthorized')
    const projects = await createClient(harness.url).api('GET', '/api/v1/projects', {
      token: fresh!,
    })
    expect(projects.status).toBe(200)
  }, 60_000)

  it('prints API errors to stderr with exit 1, and usage errors with exit 2', async () => {
    const invalid = await runTis(['projects', 'create', 'x', '--kind', 'cobol'], env)
    expect(invalid.code).toBe(1)
    expect(invalid.stderr).toMatch(/^tis: integration_kind /)
    expect(invalid.stdout).toBe('')

    const unauthorized = await runTis(['projects', 'list'], { ...env, TIS_TOKEN: 'tis_user_nope' })
    expect(unauthorized.code).toBe(1)
    expect(unauthorized.stderr).toContain('tis: Unauthorized')

    const usage = await runTis(['keys', 'revoke', 'only-one-arg'], env)
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('usage: tis keys revoke <project_id> <key_id>')

    const unreachable = await runTis(['projects', 'list', '--url', 'http://127.0.0.1:9'], env)
    expect(unreachable.code).toBe(1)
    expect(unreachable.stderr).toContain('cannot reach http://127.0.0.1:9')
  })
})
