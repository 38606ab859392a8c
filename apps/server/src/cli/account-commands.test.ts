import { describe, expect, it } from 'vitest'
import { runAgainstFakeServer } from './fake-server'
import { EXIT } from './run'

const SESSION = {
  id: '01a203af-ac77-79d4-9708-1fd9c9d94c22',
  created_at: '2026-01-01T00:00:00.000Z',
  last_seen_at: '2026-01-02T00:00:00.000Z',
  expires_at: '2026-01-09T00:00:00.000Z',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
  ip: '192.0.2.7',
}

/** The CLI against a fake server answering `answer`; the requests it sent. */
const run = (argv: string[], answer: { status: number; body?: unknown }) =>
  runAgainstFakeServer(argv, answer, { TIS_TOKEN: 'tis_user_old', TIS_URL: 'http://tis.test' })

describe('tis users sessions, sign-out-everywhere, rotate-token', () => {
  it.each([
    [['users', 'sessions'], 'GET', '/api/v1/users/me/sessions'],
    [['users', 'sign-out-everywhere'], 'DELETE', '/api/v1/users/me/sessions'],
    [['users', 'rotate-token'], 'POST', '/api/v1/users/me/token'],
  ])('tis %j sends %s %s with the access token and no body', async (argv, method, path) => {
    const { sent } = await run([...argv, '--json'], { status: 200, body: {} })
    expect(sent).toEqual([
      {
        method,
        url: `http://tis.test${path}`,
        headers: expect.objectContaining({ Authorization: 'Bearer tis_user_old' }),
        body: undefined,
      },
    ])
  })

  it('lists the sessions as a table', async () => {
    const r = await run(['users', 'sessions'], { status: 200, body: { sessions: [SESSION] } })
    expect(r.code).toBe(EXIT.ok)
    expect(r.stdout).toMatch(/^ID\s+SIGNED IN\s+LAST SEEN\s+ENDS\s+ADDRESS\s+BROWSER\n/)
    expect(r.stdout).toContain(`${SESSION.id}  ${SESSION.created_at}`)
    expect(r.stdout).toContain('192.0.2.7  Mozilla/5.0 (X11; Linux x86_64)\n')
  })

  it('counts the sessions signed out', async () => {
    const r = await run(['users', 'sign-out-everywhere'], {
      status: 200,
      body: { sessions_ended: 3 },
    })
    expect(r.stdout).toBe('Signed out everywhere: ended 3 sessions.\n')
  })

  it('prints the new token once, with how to use it', async () => {
    const body = {
      user: { id: 'u1', email: 'ada@example.com', admin: false },
      access_token: 'tis_user_new',
      sessions_ended: 1,
    }
    const r = await run(['users', 'rotate-token'], { status: 201, body })
    expect(r.code).toBe(EXIT.ok)
    expect(r.stdout).toBe(
      [
        'Replaced the access token of ada@example.com; the old one no longer works.',
        'Ended 1 dashboard session.',
        'New access token (shown only now): tis_user_new',
        'Use it from now on: export TIS_TOKEN=tis_user_new',
        '',
      ].join('\n'),
    )
  })

  it('reports a refused rotation with exit 1 and the TIS_TOKEN hint', async () => {
    const r = await run(['users', 'rotate-token'], { status: 401, body: { error: 'Unauthorized' } })
    expect(r.code).toBe(EXIT.api)
    expect(r.stderr).toContain('tis: Unauthorized\n')
    expect(r.stdout).toBe('')
  })
})
