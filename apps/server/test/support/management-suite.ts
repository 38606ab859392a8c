import {
  ADMIN_EMAIL,
  ADMIN_TOKEN,
  createClient,
  type Harness,
  unique,
} from '@tis/test-utils/server'
import { describe, expect, it } from 'vitest'

/** The management API over HTTP: the happy paths and its 400/401/403/404/422 answers. */
export function describeManagement(harness: () => Harness) {
  const client = () => createClient(harness().url)

  it('lets the administrator create users, each with an access token shown once', async () => {
    const c = client()
    const email = `${unique('Dev')}@Tis.Test`
    const r = await c.api('POST', '/api/v1/users', {
      token: ADMIN_TOKEN,
      json: { user: { email } },
    })
    expect(r.status).toBe(201)
    expect(r.body).toEqual({
      user: { id: expect.any(String), email: email.toLowerCase(), admin: false },
      access_token: expect.stringMatching(/^tis_user_/),
    })
    const again = await c.api('POST', '/api/v1/users', {
      token: ADMIN_TOKEN,
      json: { user: { email } },
    })
    expect(again.status).toBe(422)
    expect(again.body).toEqual({ errors: ['email has already been taken'] })
  })

  it('creates, lists and shows projects, each user seeing their own', async () => {
    const c = client()
    const alice = await c.createUser()
    const bob = await c.createUser()
    const project = await c.createProject(alice.token, 'python')
    expect(project).toMatchObject({ status: 'active', integration_kind: 'python' })

    const list = (token: string) => c.api('GET', '/api/v1/projects', { token })
    expect((await list(alice.token)).body.projects.map((p: { id: string }) => p.id)).toEqual([
      project.id,
    ])
    expect((await list(bob.token)).body).toEqual({ projects: [] })
    const all = (await list(ADMIN_TOKEN)).body.projects.map((p: { id: string }) => p.id)
    expect(all).toContain(project.id)

    const shown = await c.api('GET', `/api/v1/projects/${project.id}`, { token: alice.token })
    expect(shown.status).toBe(200)
    expect(shown.body.project).toEqual(project)
  })

  it('creates, lists and revokes API keys; tokens are never listed', async () => {
    const c = client()
    const project = await c.createProject()
    const created = await c.api('POST', `/api/v1/projects/${project.id}/api_keys`, {
      token: ADMIN_TOKEN,
      json: { api_key: { name: 'ci' } },
    })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      api_key: {
        id: expect.any(String),
        name: 'ci',
        created_at: expect.any(String),
        revoked_at: null,
      },
      token: expect.stringMatching(/^tis_/),
    })
    const path = `/api/v1/projects/${project.id}/api_keys`
    const listed = await c.api('GET', path, { token: ADMIN_TOKEN })
    expect(listed.body).toEqual({ api_keys: [created.body.api_key] })
    expect(listed.text).not.toContain(created.body.token)

    const revoked = await c.api('DELETE', `${path}/${created.body.api_key.id}`, {
      token: ADMIN_TOKEN,
    })
    expect(revoked.status).toBe(204)
    expect(revoked.text).toBe('')
    const after = await c.api('GET', path, { token: ADMIN_TOKEN })
    expect(after.body.api_keys[0].revoked_at).toEqual(expect.any(String))
  })

  it('shares a project with a member, who may see it but not manage it', async () => {
    const c = client()
    const owner = await c.createUser()
    const member = await c.createUser()
    const project = await c.createProject(owner.token)
    const add = (token: string, email: string) =>
      c.api('POST', `/api/v1/projects/${project.id}/members`, {
        token,
        json: { member: { email } },
      })
    const added = await add(owner.token, member.email)
    expect(added.status).toBe(201)
    expect(added.body.member).toMatchObject({ project_id: project.id, email: member.email })
    expect((await add(owner.token, member.email)).status).toBe(200)

    const seen = await c.api('GET', `/api/v1/projects/${project.id}`, { token: member.token })
    expect(seen.status).toBe(200)
    const archive = await c.api('POST', `/api/v1/projects/${project.id}/archive`, {
      token: member.token,
    })
    expect(archive.status).toBe(403)
    expect(archive.body).toEqual({ error: 'Forbidden' })
    expect((await add(member.token, ADMIN_EMAIL)).status).toBe(403)
  })

  it('lists the owner and members to the owner, a member and an administrator, 404 to others', async () => {
    const c = client()
    const owner = await c.createUser()
    const member = await c.createUser()
    const stranger = await c.createUser()
    const project = await c.createProject(owner.token)
    const path = `/api/v1/projects/${project.id}/members`
    await c.api('POST', path, { token: owner.token, json: { member: { email: member.email } } })
    for (const token of [owner.token, member.token, ADMIN_TOKEN]) {
      const listed = await c.api('GET', path, { token })
      expect(listed.status).toBe(200)
      expect(listed.body.members).toEqual([
        { user_id: owner.id, email: owner.email, role: 'owner', added_at: expect.any(String) },
        { user_id: member.id, email: member.email, role: 'member', added_at: expect.any(String) },
      ])
    }
    expect((await c.api('GET', path, { token: stranger.token })).status).toBe(404)
    expect((await c.api('GET', path)).status).toBe(401)
  })

  describe('errors', () => {
    const someone = async () => {
      const c = client()
      const user = await c.createUser()
      const mine = await c.createProject(user.token)
      const theirs = await c.createProject()
      return { c, user, mine, theirs }
    }

    it.each([
      ['401 without a token', 'GET', '/api/v1/projects', {}, 401, { error: 'Unauthorized' }],
      [
        '401 with a project API key instead of an access token',
        'GET',
        '/api/v1/projects',
        { token: 'tis_0123456789abcdef0123456789abcdef0123456789abcdef' },
        401,
        { error: 'Unauthorized' },
      ],
      [
        '403 when a non-administrator creates a user',
        'POST',
        '/api/v1/users',
        { json: { user: { email: 'x@tis.test' } } },
        403,
        { error: 'Forbidden' },
      ],
      [
        '404 for an unknown project',
        'GET',
        '/api/v1/projects/01a203af-ac77-79d4-9708-1fd9c9d94c22',
        {},
        404,
        { error: 'Not found' },
      ],
      [
        '404 for a malformed project id',
        'GET',
        '/api/v1/projects/not-a-uuid',
        {},
        404,
        { error: 'Not found' },
      ],
      [
        "404 for another user's project",
        'GET',
        '/api/v1/projects/:theirs',
        {},
        404,
        { error: 'Not found' },
      ],
      [
        "404 archiving another user's project",
        'POST',
        '/api/v1/projects/:theirs/archive',
        {},
        404,
        { error: 'Not found' },
      ],
      [
        '404 revoking an unknown key',
        'DELETE',
        '/api/v1/projects/:mine/api_keys/01a203af-ac77-79d4-9708-1fd9c9d94c22',
        {},
        404,
        { error: 'Not found' },
      ],
      [
        '422 for an unknown integration kind',
        'POST',
        '/api/v1/projects',
        { json: { project: { name: 'p', integration_kind: 'cobol' } } },
        422,
        { errors: [expect.stringContaining('integration_kind')] },
      ],
      [
        '422 adding a member who is not a user',
        'POST',
        '/api/v1/projects/:mine/members',
        { json: { member: { email: 'nobody@tis.test' } } },
        422,
        { errors: ['email does not belong to a user'] },
      ],
      [
        '400 without the envelope',
        'POST',
        '/api/v1/projects',
        { json: { name: 'p' } },
        400,
        { error: expect.stringMatching(/^param is missing or the value is empty: project/) },
      ],
      [
        '400 for malformed JSON',
        'POST',
        '/api/v1/projects',
        { text: '{"project":' },
        400,
        {
          error:
            'param is missing or the value is empty: project (the request body is not valid JSON)',
        },
      ],
    ])('%s', async (_rule, method, rawPath, options, status, body) => {
      const { c, user, mine, theirs } = await someone()
      const path = rawPath.replace(':mine', mine.id).replace(':theirs', theirs.id)
      const token = 'token' in options ? options.token : status === 401 ? undefined : user.token
      const r = await c.api(method, path, { ...options, ...(token ? { token } : {}) })
      expect(r.status).toBe(status)
      expect(r.body).toEqual(body)
    })
  })
}
