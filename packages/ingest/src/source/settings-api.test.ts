import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../ids'
import { createProjectAccess } from '../management/access'
import type { ProjectRecord, SourceSettingsRecord, UserRecord } from '../ports'
import { createSecretBox } from './secret-box'
import { createSourceSettingsApi } from './settings-api'

const OWNER: UserRecord = { id: 'u-owner', email: 'o@x.test', createdAt: new Date(0) }
const MEMBER: UserRecord = { id: 'u-member', email: 'm@x.test', createdAt: new Date(0) }
const PROJECT: ProjectRecord = {
  id: '0190c6a0-0000-7000-8000-000000000001',
  name: 'p',
  integrationKind: 'node',
  status: 'active',
  ownerId: OWNER.id,
  createdAt: new Date(0),
  archivedAt: null,
  rateLimit: null,
}
const SECRET = 'settings-api-test-secret-0123456789abcdef'
const TOKEN = 'github_pat_SETTINGStoken0123456789'

function setup(secretKey: string | null = SECRET) {
  const saved = new Map<string, SourceSettingsRecord>()
  const store = {
    findSourceSettings: async (id: string) => saved.get(id) ?? null,
    saveSourceSettings: async (s: SourceSettingsRecord) => void saved.set(s.projectId, s),
  }
  const users: Record<string, UserRecord> = { owner: OWNER, member: MEMBER }
  // The real access rule over users whose access token is `tis_user_<who>`.
  const access = createProjectAccess({
    store: {
      findUserByTokenDigest: async (digest) =>
        Object.entries(users).find(([who]) => sha256Hex(`tis_user_${who}`) === digest)?.[1] ?? null,
      findProject: async (id) => (id === PROJECT.id ? PROJECT : null),
      isMember: async () => true,
    },
  })
  const api = createSourceSettingsApi({
    store,
    access,
    excerpts: {
      secretBox: secretKey ? createSecretBox(secretKey) : null,
      hasServerToken: false,
      serverApiUrl: 'https://api.github.com',
    },
    now: () => new Date('2026-01-01T00:00:00Z'),
  })
  const put = (who: string, body: unknown) =>
    api.setSourceSettings({
      headers: { authorization: `Bearer tis_user_${who}` },
      params: { id: PROJECT.id },
      text: typeof body === 'string' ? body : JSON.stringify(body),
    })
  const get = (who: string) =>
    api.getSourceSettings({
      headers: { authorization: `Bearer tis_user_${who}` },
      params: { id: PROJECT.id },
    })
  return { saved, put, get }
}

describe('source settings API', () => {
  it('defaults before anything is set', async () => {
    const { get } = setup()
    expect((await get('member')).body).toEqual({
      source_settings: {
        github_token_set: false,
        server_token_available: false,
        path_prefix: null,
        context_lines: 5,
        github_api_url: null,
        effective_github_api_url: 'https://api.github.com',
        updated_at: null,
      },
    })
  })

  it('seals the token for the project, keeps absent fields and clears null ones', async () => {
    const { put, saved } = setup()
    const first = await put('owner', {
      github_token: TOKEN,
      path_prefix: 'C:\\app',
      context_lines: 2,
    })
    expect(first.status).toBe(200)
    expect(JSON.stringify(first.body)).not.toContain(TOKEN)
    const stored = saved.get(PROJECT.id)!
    expect(stored.pathPrefix).toBe('C:/app/')
    expect(createSecretBox(SECRET).open(stored.githubTokenSealed!, PROJECT.id)).toBe(TOKEN)

    const second = await put('owner', { source_settings: { context_lines: null } })
    expect(second.body).toMatchObject({
      source_settings: { github_token_set: true, path_prefix: 'C:/app/', context_lines: 5 },
    })
    await put('owner', { github_token: null })
    expect(saved.get(PROJECT.id)!.githubTokenSealed).toBeNull()
  })

  it.each([
    ['a token with spaces', { github_token: 'a b' }, /github_token/],
    ['a token with a control character', { github_token: 'ab\u0000c' }, /github_token/],
    ['a non-ASCII token', { github_token: 'tökén' }, /github_token/],
    ['context lines above 50', { context_lines: 51 }, /context_lines/],
    ['fractional context lines', { context_lines: 1.5 }, /context_lines/],
    [
      'an API URL with credentials',
      { github_api_url: 'https://u:p@ghe.test/api/v3' },
      /github_api_url/,
    ],
    ['a non-http API URL', { github_api_url: 'file:///etc' }, /github_api_url/],
    ['an unknown field', { token: 'x' }, /token is not a permitted property/],
    ['no setting at all', { token: 'x' }, /source_settings must include at least one of/],
    [
      'an unknown field beside a known one',
      { token: 'x', context_lines: 1 },
      /token is not a source setting/,
    ],
  ])('refuses %s with 422', async (_name, body, message) => {
    const { put, saved } = setup()
    const r = await put('owner', body)
    expect(r.status).toBe(422)
    expect((r.body as { errors: string[] }).errors.join('\n')).toMatch(message)
    expect(saved.size).toBe(0)
  })

  it.each([
    ['an array body', [1], /must be a JSON object with a "source_settings" object/],
    ['a null body', null, /must be a JSON object/],
    ['an empty body', {}, /empty object/],
    ['an empty envelope', { source_settings: {} }, /"source_settings" must be an object/],
    ['a null envelope', { source_settings: null }, /"source_settings" must be an object/],
    ['no body', '', /the request body is empty/],
  ])('refuses %s with 400 naming the envelope', async (_name, body, message) => {
    const { put, saved } = setup()
    const r = await put('owner', body)
    expect(r.status).toBe(400)
    const error = (r.body as { error: string }).error
    expect(error).toMatch(/^param is missing or the value is empty: source_settings/)
    expect(error).toMatch(message)
    expect(saved.size).toBe(0)
  })

  it('refuses a token without a secret key, naming SERVICE_SECRET_KEY, but takes other fields', async () => {
    const { put } = setup(null)
    const r = await put('owner', { github_token: TOKEN })
    expect(r.status).toBe(422)
    expect(JSON.stringify(r.body)).toMatch(/SERVICE_SECRET_KEY/)
    expect(JSON.stringify(r.body)).not.toContain(TOKEN)
    expect((await put('owner', { path_prefix: '/srv' })).status).toBe(200)
  })

  it('answers 401, 403, 404 and 400 like the management API', async () => {
    const { put, get } = setup()
    expect((await get('nobody')).status).toBe(401)
    expect((await put('member', { context_lines: 1 })).status).toBe(403)
    expect((await put('owner', '{')).status).toBe(400)
    const { setSourceSettings } = createSourceSettingsApi({
      store: { findSourceSettings: async () => null, saveSourceSettings: async () => {} },
      access: createProjectAccess({
        store: {
          findUserByTokenDigest: async () => null,
          findProject: async () => null,
          isMember: async () => false,
        },
      }),
      excerpts: { secretBox: null, hasServerToken: false, serverApiUrl: 'https://api.github.com' },
      now: () => new Date(),
    })
    expect(
      (await setSourceSettings({ headers: {}, user: OWNER, params: { id: 'nope' }, text: '{}' }))
        .status,
    ).toBe(404)
  })
})
