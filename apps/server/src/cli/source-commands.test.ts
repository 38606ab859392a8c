import { describe, expect, it } from 'vitest'
import { runAgainstFakeServer } from './fake-server'
import { EXIT } from './run'

const PROJECT_ID = '01a203af-ac77-79d4-9708-1fd9c9d94c22'
const SETTINGS = {
  github_token_set: true,
  server_token_available: false,
  path_prefix: '/app/',
  context_lines: 5,
  github_api_url: null,
  effective_github_api_url: 'https://api.github.com',
  updated_at: '2026-01-01T00:00:00.000Z',
}

/** The CLI against a fake server; the requests it sent without their headers. */
async function run(
  argv: string[],
  answer: { status: number; body: unknown } = { status: 200, body: { source_settings: SETTINGS } },
) {
  const r = await runAgainstFakeServer(argv, answer, {
    TIS_TOKEN: 'tis_user_t',
    TIS_URL: 'http://tis.test',
  })
  return { ...r, sent: r.sent.map(({ headers: _, ...request }) => request) }
}

describe('tis source-settings', () => {
  it('shows the settings without any token', async () => {
    const r = await run(['source-settings', 'show', PROJECT_ID])
    expect(r.code).toBe(EXIT.ok)
    expect(r.sent).toEqual([
      {
        method: 'GET',
        url: `http://tis.test/api/v1/projects/${PROJECT_ID}/source_settings`,
        body: undefined,
      },
    ])
    expect(r.stdout).toContain('github_token:   set (project token)')
    expect(r.stdout).toContain('path_prefix:    /app/')
    expect(r.stdout).toContain('github_api_url: https://api.github.com (server default)')
  })

  it('sets the given fields, `default` clearing one, and never prints the token', async () => {
    const token = 'github_pat_CLItoken0123456789'
    const r = await run([
      'source-settings',
      'set',
      PROJECT_ID,
      '--github-token',
      token,
      '--context-lines',
      '3',
      '--path-prefix',
      'default',
    ])
    expect(r.code).toBe(EXIT.ok)
    expect(r.sent[0]).toMatchObject({
      method: 'PUT',
      body: { github_token: token, context_lines: 3, path_prefix: null },
    })
    expect(r.stdout + r.stderr).not.toContain(token)
  })

  it.each([
    [['source-settings', 'set', PROJECT_ID], /needs at least one of --github-token/],
    [
      ['source-settings', 'set', PROJECT_ID, '--context-lines', 'many'],
      /--context-lines must be an integer/,
    ],
  ])('refuses %j as a usage error', async (argv, message) => {
    const r = await run(argv)
    expect(r.code).toBe(EXIT.usage)
    expect(r.stderr).toMatch(message)
    expect(r.sent).toEqual([])
  })

  it("prints the API's refusal (422 without SERVICE_SECRET_KEY)", async () => {
    const errors = [
      'github_token cannot be stored: the server has no SERVICE_SECRET_KEY to encrypt it with',
    ]
    const r = await run(['source-settings', 'set', PROJECT_ID, '--github-token', 'x'], {
      status: 422,
      body: { errors },
    })
    expect(r.code).toBe(EXIT.api)
    expect(r.stderr).toContain('SERVICE_SECRET_KEY')
  })
})
