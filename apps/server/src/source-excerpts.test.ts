import { githubFixture, githubFixtureText } from '@tis/test-utils/github-fixtures'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  errorEvent,
  handlerFrame,
  SHA,
  server,
  setup,
} from '../test/support/source-excerpts-fixture'

// The engine's source excerpts over the server's GitHub client: fetching and caching.

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

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
})
