import {
  type CachedSourceFile,
  createSecretBox,
  createSourceExcerpts,
  type DeploymentRecord,
  type EventRecord,
  type SourceExcerptsOptions,
  type SourceSettingsRecord,
  type SourceStore,
} from '@tis/ingest'
import { githubFixture, githubFixtureText } from '@tis/test-utils/github-fixtures'
import { http } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createGitHubSourceProviders } from './source-github'

// The engine's source excerpts over the server's GitHub client (msw in place of GitHub).

const server = setupServer()
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const SHA = 'abcdef0123456789abcdef0123456789abcdef01'
const SERVER_TOKEN = 'ghp_servertokenNEVERSHOWN0123456789'
const PROJECT_TOKEN = 'github_pat_projecttokenNEVERSHOWN'
const SECRET = 'server-secret-key-for-tests-0123456789'
let counter = 0

/** An in-memory SourceStore: the port's behaviour, without a database (the contract suite covers the SQL). */
function memoryStore(): SourceStore & { files: Map<string, CachedSourceFile> } {
  const files = new Map<string, CachedSourceFile>()
  const settings = new Map<string, SourceSettingsRecord>()
  const id = (k: { scope: string; repository: string; path: string; commitSha: string }) =>
    [k.scope, k.repository, k.path, k.commitSha].join('\n')
  return {
    files,
    findSourceFiles: async (keys) => keys.flatMap((k) => files.get(id(k)) ?? []),
    saveSourceFile: async (f) => void files.set(id(f), f),
    findSourceSettings: async (p) => settings.get(p) ?? null,
    saveSourceSettings: async (s) => void settings.set(s.projectId, s),
  }
}

function event(payload: Record<string, unknown>): EventRecord {
  return {
    id: 'e1',
    legacyId: 1,
    eventType: 'error',
    level: 'error',
    message: 'boom',
    fingerprint: null,
    occurredAt: new Date('2026-01-01T00:00:00Z'),
    payload,
    issueId: null,
    environment: 'production',
    release: 'v1',
    traceId: null,
    requestId: null,
    sessionId: null,
  }
}

const errorEvent = (frames: unknown[], extra: Record<string, unknown> = {}) =>
  event({ repository: 'octo/app', commit_sha: SHA, context: { exception: { frames } }, ...extra })

function github(answer: (request: Request) => Response | Promise<Response>) {
  const apiUrl = `https://api-${++counter}.github.test`
  const seen: Request[] = []
  server.use(
    http.get(`${apiUrl}/repos/:owner/:repo/contents/*`, ({ request }) => {
      seen.push(request)
      return answer(request)
    }),
  )
  return { apiUrl, seen }
}

function setup(
  answer: (request: Request) => Response | Promise<Response> = () => githubFixture('raw-200'),
  options: Partial<SourceExcerptsOptions> = {},
) {
  const store = memoryStore()
  const { apiUrl, seen } = github(answer)
  const clock = { ms: Date.UTC(2026, 0, 1) }
  const logs: unknown[] = []
  const logger = { warn: (m: string, f?: Record<string, unknown>) => logs.push([m, f]) }
  const excerpts = createSourceExcerpts({
    store,
    providers: createGitHubSourceProviders({ logger }),
    serverToken: SERVER_TOKEN,
    serverApiUrl: apiUrl,
    now: () => new Date(clock.ms),
    logger,
    ...options,
  })
  return { store, excerpts, apiUrl, seen, clock, logs }
}

const handlerFrame = { function: 'handler', filename: 'src/handler.ts', lineno: 10, colno: 9 }

describe('source excerpts', () => {
  it('cuts the frame line ± 5 from the file at the commit, with a link', async () => {
    const { excerpts, seen } = setup()
    const result = await excerpts.framesFor('p1', errorEvent([handlerFrame]), null)
    expect(result.source_commit).toEqual({ repository: 'octo/app', commit_sha: SHA, from: 'event' })
    const lines = githubFixtureText('handler.ts.txt').split('\n')
    expect(result.frames).toEqual([
      {
        ...handlerFrame,
        in_app: true,
        source: {
          status: 'ok',
          repository: 'octo/app',
          commit_sha: SHA,
          path: 'src/handler.ts',
          line: 10,
          lines: [5, 6, 7, 8, 9, 10, 11, 12, 13].map((n) => ({ number: n, text: lines[n - 1] })),
          url: expect.stringMatching(new RegExp(`/octo/app/blob/${SHA}/src/handler.ts#L10$`)),
        },
      },
    ])
    expect(new URL(seen[0]!.url).searchParams.get('ref')).toBe(SHA)
  })

  it('reads a cached file without asking GitHub again, and fetches a shared file once', async () => {
    const { excerpts, seen, store } = setup()
    const frames = [handlerFrame, { ...handlerFrame, lineno: 3 }]
    const first = await excerpts.framesFor('p1', errorEvent(frames), null)
    expect(seen).toHaveLength(1)
    expect(store.files.size).toBe(1)
    const second = await excerpts.framesFor('p1', errorEvent(frames), null)
    expect(seen).toHaveLength(1)
    expect(second).toEqual(first)
  })

  it('caches not_found for a while only, and never caches other failures', async () => {
    let answer: 'not-found-404' | 'bad-credentials-401' = 'not-found-404'
    const { excerpts, seen, clock } = setup(() => githubFixture(answer))
    const read = async () =>
      (await excerpts.framesFor('p1', errorEvent([handlerFrame]), null)).frames[0]!.source.status
    expect(await read()).toBe('not_found')
    expect(await read()).toBe('not_found')
    expect(seen).toHaveLength(1)
    clock.ms += 15 * 60_000 + 1
    answer = 'bad-credentials-401'
    expect(await read()).toBe('no_access')
    expect(await read()).toBe('no_access')
    expect(seen).toHaveLength(3)
  })

  it('answers timeout for a slow file, and shows it once the fetch finished', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => {
      release = r
    })
    const { excerpts, seen, store } = setup(
      async () => {
        await gate
        return githubFixture('raw-200')
      },
      { timeoutMs: 30 },
    )
    const slow = await excerpts.framesFor('p1', errorEvent([handlerFrame]), null)
    expect(slow.frames[0]!.source).toMatchObject({ status: 'timeout' })
    release()
    await expect.poll(() => store.files.size).toBe(1)
    const later = await excerpts.framesFor('p1', errorEvent([handlerFrame]), null)
    expect(later.frames[0]!.source.status).toBe('ok')
    expect(seen).toHaveLength(1)
  })

  it('fetches at most `concurrency` files at once', async () => {
    let running = 0
    let peak = 0
    const { excerpts, seen } = setup(
      async () => {
        running++
        peak = Math.max(peak, running)
        await new Promise((r) => setTimeout(r, 10))
        running--
        return githubFixture('raw-200')
      },
      { concurrency: 2 },
    )
    const frames = ['a', 'b', 'c', 'd', 'e'].map((n) => ({ filename: `src/${n}.ts`, lineno: 1 }))
    const result = await excerpts.framesFor('p1', errorEvent(frames), null)
    expect(result.frames.every((f) => f.source.status === 'ok')).toBe(true)
    expect(seen).toHaveLength(5)
    expect(peak).toBe(2)
  })

  it('skips files past maxFiles', async () => {
    const { excerpts, seen } = setup(undefined, { maxFiles: 2 })
    const frames = ['a', 'b', 'a', 'c'].map((n) => ({ filename: `src/${n}.ts`, lineno: 1 }))
    const statuses = (await excerpts.framesFor('p1', errorEvent(frames), null)).frames.map(
      (f) => f.source.status,
    )
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'skipped'])
    expect(seen).toHaveLength(2)
  })

  it('says why frames have no excerpt: not in the repository, no commit, not configured', async () => {
    const frames = [
      handlerFrame,
      { filename: 'node:internal/timers', lineno: 5 },
      { filename: '/app/x.ts', lineno: 1 },
    ]
    const { excerpts, seen } = setup()
    const noCommit = await excerpts.framesFor(
      'p1',
      event({ context: { exception: { frames } } }),
      null,
    )
    expect(noCommit.source_commit).toBeNull()
    expect(noCommit.frames.map((f) => [f.in_app, f.source.status])).toEqual([
      [true, 'no_commit'],
      [false, 'not_in_repository'],
      [false, 'not_in_repository'],
    ])
    const unconfigured = createSourceExcerpts({ store: memoryStore() })
    const none = await unconfigured.framesFor('p1', errorEvent([handlerFrame]), null)
    expect(none.frames[0]!.source).toMatchObject({
      status: 'not_configured',
      message: expect.stringMatching(/SERVICE_GITHUB_TOKEN/),
    })
    expect(seen).toHaveLength(0)
  })

  it('uses the deployment commit when the event names none', async () => {
    const { excerpts, seen } = setup()
    const deployment = { repository: 'octo/deployed', commitSha: 'fedcba9' } as DeploymentRecord
    const e = event({ context: { exception: { frames: [handlerFrame] } } })
    const result = await excerpts.framesFor('p1', e, deployment)
    expect(result.source_commit).toEqual({
      repository: 'octo/deployed',
      commit_sha: 'fedcba9',
      from: 'deployment',
    })
    expect(new URL(seen[0]!.url).pathname).toBe('/repos/octo/deployed/contents/src/handler.ts')
  })

  it("uses the project's own token, path prefix and context lines", async () => {
    const { excerpts, seen, store, apiUrl } = setup(undefined, { secretKey: SECRET })
    await store.saveSourceSettings({
      projectId: 'p1',
      githubTokenSealed: createSecretBox(SECRET).seal(PROJECT_TOKEN, 'p1'),
      pathPrefix: '/srv/app/',
      contextLines: 1,
      githubApiUrl: apiUrl,
      updatedAt: new Date(),
    })
    const frames = [{ ...handlerFrame, filename: '/srv/app/src/handler.ts' }]
    const result = await excerpts.framesFor('p1', errorEvent(frames), null)
    expect(result.frames[0]!.source).toMatchObject({
      status: 'ok',
      path: 'src/handler.ts',
      lines: [{ number: 9 }, { number: 10 }, { number: 11 }],
    })
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${PROJECT_TOKEN}`)
    // Another project using the server token does not read the file this project's token fetched.
    await excerpts.framesFor('p2', errorEvent([handlerFrame]), null)
    expect(seen).toHaveLength(2)
    expect(seen[1]!.headers.get('authorization')).toBe(`Bearer ${SERVER_TOKEN}`)
  })

  it("never sends the server token to a project's own API URL", async () => {
    const { excerpts, store, seen } = setup()
    await store.saveSourceSettings({
      projectId: 'p1',
      githubTokenSealed: null,
      pathPrefix: null,
      contextLines: null,
      githubApiUrl: 'https://evil.test/api/v3',
      updatedAt: new Date(),
    })
    const result = await excerpts.framesFor('p1', errorEvent([handlerFrame]), null)
    expect(result.frames[0]!.source).toMatchObject({
      status: 'not_configured',
      message: expect.stringMatching(/needs a project github_token/),
    })
    expect(seen).toHaveLength(0)
  })

  it('answers not_configured for a token sealed with another key', async () => {
    const { excerpts, store } = setup(undefined, { secretKey: SECRET })
    await store.saveSourceSettings({
      projectId: 'p1',
      githubTokenSealed: createSecretBox('another-key-0123456789abcdef0123').seal(
        PROJECT_TOKEN,
        'p1',
      ),
      pathPrefix: null,
      contextLines: null,
      githubApiUrl: null,
      updatedAt: new Date(),
    })
    const result = await excerpts.framesFor('p1', errorEvent([handlerFrame]), null)
    expect(result.frames[0]!.source).toMatchObject({
      status: 'not_configured',
      message: expect.stringMatching(/cannot be decrypted/),
    })
  })

  it('reports a line past the end of the file as not_found', async () => {
    const { excerpts } = setup()
    const result = await excerpts.framesFor(
      'p1',
      errorEvent([{ ...handlerFrame, lineno: 400 }]),
      null,
    )
    expect(result.frames[0]!.source).toMatchObject({
      status: 'not_found',
      message: expect.stringMatching(/has no line 400/),
    })
  })

  it('never fails the read when the store fails, and never shows a token', async () => {
    const store = memoryStore()
    const broken = {
      ...store,
      findSourceSettings: async () => {
        throw new Error('db down')
      },
    }
    const logs: unknown[] = []
    const excerpts = createSourceExcerpts({
      store: broken,
      serverToken: SERVER_TOKEN,
      logger: { warn: (m, f) => logs.push([m, f]) },
    })
    const result = await excerpts.framesFor('p1', errorEvent([handlerFrame]), null)
    expect(result.frames[0]!.source.status).toBe('unavailable')
    expect(logs).toHaveLength(1)
    expect(JSON.stringify([result, logs])).not.toContain(SERVER_TOKEN)
  })

  it('gives an event without frames an empty list', async () => {
    const { excerpts } = setup()
    expect((await excerpts.framesFor('p1', event({ message: 'x' }), null)).frames).toEqual([])
  })
})
