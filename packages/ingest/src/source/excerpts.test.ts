import { describe, expect, it } from 'vitest'
import type { EventRecord, SourceProvider, SourceStore } from '../ports'
import { createSourceExcerpts } from './excerpts'

// The excerpts over the server's GitHub client are tested in apps/server (source-excerpts.test.ts).

const SHA = 'abcdef0123456789abcdef0123456789abcdef01'
const store: SourceStore = {
  findSourceFiles: async () => [],
  saveSourceFile: async () => {},
  findSourceSettings: async () => null,
  saveSourceSettings: async () => {},
}
const event = {
  id: 'e1',
  legacyId: 1,
  eventType: 'error',
  level: 'error',
  message: 'boom',
  fingerprint: null,
  occurredAt: new Date('2026-01-01T00:00:00Z'),
  payload: {
    repository: 'octo/app',
    commit_sha: SHA,
    context: { exception: { frames: [{ function: 'f', filename: 'src/a.ts', lineno: 2 }] } },
  },
  issueId: null,
  environment: 'production',
  release: 'v1',
  traceId: null,
  requestId: null,
  sessionId: null,
} satisfies EventRecord

describe('createSourceExcerpts without a code host client', () => {
  it('answers not_configured: the engine fetches nothing itself', async () => {
    const excerpts = createSourceExcerpts({ store, serverToken: 'ghp_x' })
    const { frames } = await excerpts.framesFor('p1', event, null)
    expect(frames.map((f) => f.source)).toEqual([
      { status: 'not_configured', message: 'no provider' },
    ])
  })

  it('asks the host-given provider for the file at the commit', async () => {
    const asked: string[] = []
    const provider: SourceProvider = {
      async getFile(repository, path, commitSha) {
        asked.push(`${repository}/${path}@${commitSha}`)
        return { status: 'ok', content: 'one\ntwo\nthree\n' }
      },
      lineUrl: (repository, path, ref, line) =>
        `https://example.test/${repository}/${path}@${ref}#${line}`,
    }
    const excerpts = createSourceExcerpts({
      store,
      serverToken: 'ghp_x',
      providers: () => provider,
    })
    const { frames } = await excerpts.framesFor('p1', event, null)
    expect(asked).toEqual([`octo/app/src/a.ts@${SHA}`])
    expect(frames[0]?.source).toMatchObject({ status: 'ok' })
  })
})
