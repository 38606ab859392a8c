import type { SourceFileResult } from '@tis/ingest'
import { githubFixture, githubFixtureText } from '@tis/test-utils/github-fixtures'
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createGitHubSourceProviders, githubWebUrl } from './source-github'

const server = setupServer()
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const TOKEN = 'github_pat_11SECRET0123456789_tokenthatmustneverleak'
const SHA = '0123456789abcdef0123456789abcdef01234567'
let counter = 0

/** A GitHub API base of its own per test, serving `answer` and recording each request. */
function github(answer: (request: Request) => Response | Promise<Response>) {
  const apiUrl = `https://api-${++counter}.github.test`
  const seen: Request[] = []
  server.use(
    http.get(`${apiUrl}/repos/:owner/:repo/contents/*`, ({ request }) => {
      seen.push(request.clone())
      return answer(request)
    }),
  )
  return { apiUrl, seen }
}

function setup(
  answer: (request: Request) => Response | Promise<Response>,
  nowMs = Date.UTC(2026, 0, 1),
) {
  const clock = { ms: nowMs }
  const logs: unknown[] = []
  const { apiUrl, seen } = github(answer)
  const factory = createGitHubSourceProviders({
    now: () => new Date(clock.ms),
    logger: { warn: (message, fields) => logs.push({ message, fields }) },
  })
  const provider = factory({ token: TOKEN, apiUrl })
  return { provider, factory, apiUrl, seen, clock, logs }
}

describe('GitHub source provider', () => {
  it('fetches the raw file at the commit with the token as Bearer', async () => {
    const { provider, apiUrl, seen } = setup(() => githubFixture('raw-200'))
    const result = await provider.getFile('octo/app', 'src/my file.ts', SHA)
    expect(result).toEqual({ status: 'ok', content: githubFixtureText('handler.ts.txt') })
    expect(seen).toHaveLength(1)
    const request = seen[0]!
    expect(request.url).toBe(`${apiUrl}/repos/octo/app/contents/src/my%20file.ts?ref=${SHA}`)
    expect(request.headers.get('accept')).toBe('application/vnd.github.raw+json')
    expect(request.headers.get('authorization')).toBe(`Bearer ${TOKEN}`)
    expect(request.headers.get('x-github-api-version')).toBe('2022-11-28')
  })

  it.each([
    ['not-found-404', 'not_found', /not found on GitHub \(Not Found\)/],
    ['bad-credentials-401', 'no_access', /refused the token \(Bad credentials\)/],
    ['forbidden-403', 'no_access', /Contents: read/],
  ] as const)('answers %s as %s', async (fixture, status, message) => {
    const { provider } = setup(() => githubFixture(fixture))
    const result = await provider.getFile('octo/app', 'src/x.ts', SHA)
    expect(result.status).toBe(status)
    expect(result.status !== 'ok' && result.message).toMatch(message)
  })

  it('answers 5xx and network failures as unavailable', async () => {
    const a = setup(() => new HttpResponse('oops', { status: 502 }))
    expect((await a.provider.getFile('o/r', 'x.ts', SHA)).status).toBe('unavailable')
    const b = setup(() => HttpResponse.error())
    expect(await b.provider.getFile('o/r', 'x.ts', SHA)).toMatchObject({
      status: 'unavailable',
      message: expect.stringMatching(/could not be reached/),
    })
  })

  it('answers a directory as not_found and a file over the limit as too_large', async () => {
    const dir = setup(() => HttpResponse.json([{ name: 'x.ts', type: 'file' }]))
    expect(await dir.provider.getFile('o/r', 'src', SHA)).toMatchObject({ status: 'not_found' })
    const big = setup(() => githubFixture('raw-200', { headers: { 'content-length': '2000000' } }))
    expect(await big.provider.getFile('o/r', 'x.ts', SHA)).toMatchObject({ status: 'too_large' })
  })

  it('once rate limited (403, x-ratelimit-remaining 0), sends nothing for that token until the reset', async () => {
    const start = Date.UTC(2026, 0, 1)
    const resetSeconds = start / 1000 + 600
    let limited = true
    const { provider, factory, apiUrl, seen, clock } = setup(
      () =>
        limited
          ? githubFixture('rate-limited-403', {
              headers: { 'x-ratelimit-reset': String(resetSeconds) },
            })
          : githubFixture('raw-200'),
      start,
    )
    const first = await provider.getFile('o/r', 'a.ts', SHA)
    expect(first).toMatchObject({ status: 'rate_limited', retryAt: new Date(resetSeconds * 1000) })
    expect(first.status !== 'ok' && first.message).toMatch(
      /rate limit for this token is spent until/,
    )

    clock.ms += 599_000
    expect((await provider.getFile('o/r', 'b.ts', SHA)).status).toBe('rate_limited')
    // Another provider with the same token shares the limit; another token does not.
    expect((await factory({ token: TOKEN, apiUrl }).getFile('o/r', 'c.ts', SHA)).status).toBe(
      'rate_limited',
    )
    expect(seen).toHaveLength(1)
    limited = false
    expect((await factory({ token: 'other', apiUrl }).getFile('o/r', 'c.ts', SHA)).status).toBe(
      'ok',
    )
    expect(seen).toHaveLength(2)

    clock.ms += 1_000
    expect((await provider.getFile('o/r', 'a.ts', SHA)).status).toBe('ok')
    expect(seen).toHaveLength(3)
  })

  it('stops at x-ratelimit-remaining 0 on a successful answer too', async () => {
    const start = Date.UTC(2026, 0, 1)
    const reset = String(start / 1000 + 60)
    const { provider, seen } = setup(
      () =>
        githubFixture('raw-200', {
          headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
        }),
      start,
    )
    expect((await provider.getFile('o/r', 'a.ts', SHA)).status).toBe('ok')
    expect((await provider.getFile('o/r', 'b.ts', SHA)).status).toBe('rate_limited')
    expect(seen).toHaveLength(1)
  })

  it('honours retry-after of a secondary limit (429)', async () => {
    const start = Date.UTC(2026, 0, 1)
    const { provider, seen, clock } = setup(() => githubFixture('secondary-limit-429'), start)
    expect(await provider.getFile('o/r', 'a.ts', SHA)).toMatchObject({
      status: 'rate_limited',
      retryAt: new Date(start + 30_000),
    })
    clock.ms += 29_000
    await provider.getFile('o/r', 'a.ts', SHA)
    expect(seen).toHaveLength(1)
    clock.ms += 1_000
    await provider.getFile('o/r', 'a.ts', SHA)
    expect(seen).toHaveLength(2)
  })

  it('never puts the token in an answer or a log line', async () => {
    const answers: SourceFileResult[] = []
    const fixtures = [
      'raw-200',
      'not-found-404',
      'bad-credentials-401',
      'forbidden-403',
      'rate-limited-403',
    ] as const
    for (const fixture of fixtures) {
      const { provider } = setup(() => githubFixture(fixture))
      answers.push(await provider.getFile('o/r', 'x.ts', SHA))
    }
    const failing = setup(() => new HttpResponse(`echo ${TOKEN}`, { status: 500 }))
    answers.push(await failing.provider.getFile('o/r', 'x.ts', SHA))
    const broken = setup(() => HttpResponse.error())
    answers.push(await broken.provider.getFile('o/r', 'x.ts', SHA))
    const logged = JSON.stringify([failing.logs, broken.logs])
    expect(failing.logs.length + broken.logs.length).toBeGreaterThan(0)
    expect(logged).not.toContain(TOKEN)
    expect(JSON.stringify(answers)).not.toContain(TOKEN)
    expect(JSON.stringify(answers)).not.toContain('SECRET')
  })

  it('links lines on github.com and on GitHub Enterprise', () => {
    const factory = createGitHubSourceProviders()
    const dotcom = factory({ token: TOKEN, apiUrl: 'https://api.github.com' })
    expect(dotcom.lineUrl('octo/app', 'src/a b.ts', SHA, 12)).toBe(
      `https://github.com/octo/app/blob/${SHA}/src/a%20b.ts#L12`,
    )
    const ghe = factory({ token: TOKEN, apiUrl: 'https://ghe.example.com/api/v3/' })
    expect(ghe.lineUrl('octo/app', 'x.rb', SHA, 3)).toBe(
      `https://ghe.example.com/octo/app/blob/${SHA}/x.rb#L3`,
    )
    expect(githubWebUrl('https://git.example.com/github/api/v3')).toBe(
      'https://git.example.com/github',
    )
    expect(githubWebUrl('https://api.octo.ghe.com')).toBe('https://octo.ghe.com')
  })

  it('sends GitHub Enterprise requests to its API URL', async () => {
    const seen: string[] = []
    server.use(
      http.get('https://ghe.example.com/api/v3/repos/:owner/:repo/contents/*', ({ request }) => {
        seen.push(request.url)
        return githubFixture('raw-200')
      }),
    )
    const ghe = createGitHubSourceProviders()({
      token: TOKEN,
      apiUrl: 'https://ghe.example.com/api/v3',
    })
    expect((await ghe.getFile('octo/app', 'x.ts', SHA)).status).toBe('ok')
    expect(seen).toEqual([`https://ghe.example.com/api/v3/repos/octo/app/contents/x.ts?ref=${SHA}`])
  })
})
