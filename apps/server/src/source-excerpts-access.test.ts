import { createSecretBox, createSourceExcerpts, type DeploymentRecord } from '@tis/ingest'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  errorEvent,
  event,
  handlerFrame,
  memoryStore,
  PROJECT_TOKEN,
  SECRET,
  SERVER_TOKEN,
  server,
  setup,
} from '../test/support/source-excerpts-fixture'

// The engine's source excerpts over the server's GitHub client: tokens, commits and failures.

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

describe('source excerpts', () => {
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
