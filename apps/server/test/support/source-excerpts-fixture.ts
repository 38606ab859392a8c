import {
  type CachedSourceFile,
  createSourceExcerpts,
  type EventRecord,
  type SourceExcerptsOptions,
  type SourceSettingsRecord,
  type SourceStore,
} from '@tis/ingest'
import { githubFixture } from '@tis/test-utils/github-fixtures'
import { http } from 'msw'
import { setupServer } from 'msw/node'
import { createGitHubSourceProviders } from '../../src/source-github'

// The engine's source excerpts over the server's GitHub client, with msw in place of GitHub
// (src/source-excerpts*.test.ts). Each test file starts and stops `server`.

/** The msw server standing in for GitHub. */
export const server = setupServer()

export const SHA = 'abcdef0123456789abcdef0123456789abcdef01'
export const SERVER_TOKEN = 'ghp_servertokenNEVERSHOWN0123456789'
export const PROJECT_TOKEN = 'github_pat_projecttokenNEVERSHOWN'
export const SECRET = 'server-secret-key-for-tests-0123456789'
let counter = 0

/** An in-memory SourceStore: the port's behaviour, without a database (the contract suite covers the SQL). */
export function memoryStore(): SourceStore & { files: Map<string, CachedSourceFile> } {
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

export function event(payload: Record<string, unknown>): EventRecord {
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

export const errorEvent = (frames: unknown[], extra: Record<string, unknown> = {}) =>
  event({ repository: 'octo/app', commit_sha: SHA, context: { exception: { frames } }, ...extra })

export function github(answer: (request: Request) => Response | Promise<Response>) {
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

export function setup(
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

export const handlerFrame = {
  function: 'handler',
  filename: 'src/handler.ts',
  lineno: 10,
  colno: 9,
}
