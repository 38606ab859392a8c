import { describe, expect, it } from 'vitest'
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

interface Sent {
  method: string
  url: string
  headers: Record<string, string>
  body: unknown
}

/** Runs the CLI against a fake server answering `status` and `body` to every request. */
async function run(
  argv: string[],
  answer: { status: number; body?: unknown } = { status: 200, body: {} },
  env: Record<string, string> = { TIS_TOKEN: 'tis_user_t' },
) {
  const sent: Sent[] = []
  let stdout = ''
  let stderr = ''
  const fetch = (async (url: string, init: RequestInit) => {
    sent.push({
      method: String(init.method),
      url,
      headers: init.headers as Record<string, string>,
      body: init.body === undefined ? undefined : JSON.parse(String(init.body)),
    })
    const text = answer.body === undefined ? null : JSON.stringify(answer.body)
    return new Response(text, { status: answer.status })
  }) as typeof globalThis.fetch
  const code = await runCli(argv, {
    env,
    fetch,
    stdout: (t) => {
      stdout += t
    },
    stderr: (t) => {
      stderr += t
    },
  })
  return { code, stdout, stderr, sent }
}

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
    [
      ['members', 'add', 'p1', 'x@y.z'],
      'POST',
      '/api/v1/projects/p1/members',
      { member: { email: 'x@y.z' } },
    ],
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
