import {
  type AccountApi,
  createHttpHandler,
  DEFAULT_SOURCE_MAP_LIMITS,
  type Engine,
  type EngineRequest,
  type EngineResponse,
  type HttpHandlerOptions,
  type ManagementApi,
} from '@tis/ingest'
import { type AppOptions, createApp } from '../../src/app'
import { createLogger } from '../../src/logger'
import { serverOpenApiDocument } from '../../src/openapi'

// The app's unit tests (src/app*.test.ts) run it over this fake engine, without a store.

export type Answer = (
  operation: string,
  request: EngineRequest,
) => EngineResponse | Promise<EngineResponse>

export const MANAGEMENT_OPERATIONS = [
  'createUser',
  'createProject',
  'listProjects',
  'getProject',
  'listApiKeys',
  'createApiKey',
  'revokeApiKey',
  'archiveProject',
  'restoreProject',
  'addMember',
  'listMembers',
  'listMobileTokens',
  'revokeMobileToken',
  'getRateLimits',
  'setRateLimits',
] as const

/** The token {@link fakeEngine}'s `account.signIn` accepts. */
export const VALID_TOKEN = 'tis_user_valid'
/** The secret session id it answers. */
export const SESSION_SECRET = 'S'.repeat(43)

/**
 * An engine that records each call and answers with `answer` (201 `{ok: true}` by default),
 * behind the engine's own HTTP handler with `http` options (a 64-byte body cap by default).
 */
export function fakeEngine(
  answer: Answer = () => ({ status: 201, headers: {}, body: { ok: true } }),
  http: HttpHandlerOptions = {},
) {
  const calls: Array<{ operation: string; request: EngineRequest }> = []
  const op = (operation: string) => async (request: EngineRequest) => {
    calls.push({ operation, request })
    return answer(operation, request)
  }
  const management = Object.fromEntries(MANAGEMENT_OPERATIONS.map((name) => [name, op(name)]))
  const apis = {
    ingest: {
      ingestEvent: op('ingestEvent'),
      ingestEventBatch: op('ingestEventBatch'),
      checkIn: op('checkIn'),
      recordDeployment: op('recordDeployment'),
      recordSessions: op('recordSessions'),
      mintMobileToken: op('mintMobileToken'),
      ingestSentry: (request, endpoint) => op(`ingestSentry:${endpoint}`)(request),
      ingestOtlp: (request, signal) => op(`ingestOtlp:${signal}`)(request),
      forgetCredentials: () => {},
      flush: async () => {},
      close: async () => {},
    },
    management: {
      ...management,
      authenticate: async () => null,
      canSee: async () => false,
    } as unknown as ManagementApi,
    reads: {
      listIssues: op('listIssues'),
      getIssue: op('getIssue'),
      updateIssue: op('updateIssue'),
      updateIssues: op('updateIssues'),
      mergeIssues: op('mergeIssues'),
      listIssueComments: op('listIssueComments'),
      createIssueComment: op('createIssueComment'),
      deleteIssueComment: op('deleteIssueComment'),
      listIssueActivity: op('listIssueActivity'),
      listEvents: op('listEvents'),
      listMonitors: op('listMonitors'),
      getMonitor: op('getMonitor'),
      listCheckIns: op('listCheckIns'),
      listDeployments: op('listDeployments'),
      getEvent: op('getEvent'),
      listTransactions: op('listTransactions'),
      getMetric: op('getMetric'),
      listTraces: op('listTraces'),
      getTrace: op('getTrace'),
      getTransactionLatency: op('getTransactionLatency'),
      listReleases: op('listReleases'),
      getRelease: op('getRelease'),
    },
    sourceSettings: {
      getSourceSettings: op('getSourceSettings'),
      setSourceSettings: op('setSourceSettings'),
    },
    alerts: {
      listAlertChannels: op('listAlertChannels'),
      createAlertChannel: op('createAlertChannel'),
      deleteAlertChannel: op('deleteAlertChannel'),
      testAlertChannel: op('testAlertChannel'),
      listAlertRules: op('listAlertRules'),
      createAlertRule: op('createAlertRule'),
      deleteAlertRule: op('deleteAlertRule'),
      listAlertDeliveries: op('listAlertDeliveries'),
    },
    sourceMaps: {
      apiRoot: op('apiRoot'),
      organization: op('organization'),
      chunkUploadOptions: op('chunkUploadOptions'),
      uploadChunks: op('uploadChunks'),
      assembleArtifactBundle: op('assembleArtifactBundle'),
      createRelease: op('createRelease'),
      updateRelease: op('updateRelease'),
      emptyList: op('emptyList'),
      uploadReleaseFile: op('uploadReleaseFile'),
      createDeploy: op('createDeploy'),
      listArtifactBundles: op('listArtifactBundles'),
      getArtifactBundle: op('getArtifactBundle'),
      deleteArtifactBundle: op('deleteArtifactBundle'),
      limits: DEFAULT_SOURCE_MAP_LIMITS,
    },
    account: {
      listSessions: op('listSessions'),
      endSessions: op('endSessions'),
      rotateToken: op('rotateToken'),
      async signIn(token: string) {
        if (token !== VALID_TOKEN) return null
        const at = new Date('2026-01-01T00:00:00Z')
        const expiresAt = new Date(at.getTime() + 3600_000)
        const user = { id: 'u1', email: 'a@b.c', createdAt: at }
        const session = {
          id: 's1',
          userId: 'u1',
          createdAt: at,
          lastSeenAt: at,
          idleExpiresAt: expiresAt,
          expiresAt,
          userAgent: null,
          ip: null,
        }
        return { secret: SESSION_SECRET, session, user, admin: false }
      },
      resolveSession: async () => null,
      signOut: async () => false,
      endsAt: (s) => s.expiresAt,
    } satisfies AccountApi,
    readiness: () => op('readiness')({ headers: {} }),
  } satisfies Omit<
    Engine,
    | 'handle'
    | 'barrier'
    | 'settled'
    | 'runAlerts'
    | 'runRetention'
    | 'workers'
    | 'start'
    | 'flush'
    | 'stop'
  >
  const engine: Engine = {
    ...apis,
    handle: createHttpHandler(apis, {
      maxBodyBytes: 64,
      openApi: () => JSON.stringify(serverOpenApiDocument()),
      ...http,
    }),
    barrier: { wait: async () => null } as unknown as Engine['barrier'],
    settled: async () => true,
    runAlerts: async () => {},
    runRetention: async () => undefined,
    workers: { projector: false, alerts: false, retention: false },
    start() {},
    flush: async () => {},
    stop: async () => {},
  }
  return { engine, calls }
}

/** The app over {@link fakeEngine}: `options` of the app, and of the engine's handler (`http`). */
export function setup(
  answer?: Answer,
  options: Partial<AppOptions> & { readonly http?: HttpHandlerOptions } = {},
) {
  const { http, ...appOptions } = options
  const { engine, calls } = fakeEngine(answer, http)
  const lines: Record<string, unknown>[] = []
  const logger = createLogger({ level: 'debug', write: (line) => lines.push(JSON.parse(line)) })
  const app = createApp({ engine, logger, trustedProxies: [], ...appOptions })
  return { app, calls, lines, engine }
}

export const post = (body: string, headers: Record<string, string> = {}) => ({
  method: 'POST',
  body,
  headers: { 'Content-Type': 'application/json', ...headers },
})
