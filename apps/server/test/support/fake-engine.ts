import {
  type AccountApi,
  DEFAULT_SOURCE_MAP_LIMITS,
  type EngineRequest,
  type EngineResponse,
  type ManagementApi,
} from '@tis/ingest'
import { type AppOptions, createApp } from '../../src/app'
import type { ServerEngine } from '../../src/compose'
import { createLogger } from '../../src/logger'

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

/** An engine that records each call and answers with `answer` (201 `{ok: true}` by default). */
export function fakeEngine(
  answer: Answer = () => ({ status: 201, headers: {}, body: { ok: true } }),
) {
  const calls: Array<{ operation: string; request: EngineRequest }> = []
  const op = (operation: string) => async (request: EngineRequest) => {
    calls.push({ operation, request })
    return answer(operation, request)
  }
  const management = Object.fromEntries(MANAGEMENT_OPERATIONS.map((name) => [name, op(name)]))
  const engine: ServerEngine = {
    ingest: {
      ingestEvent: op('ingestEvent'),
      ingestEventBatch: op('ingestEventBatch'),
      checkIn: op('checkIn'),
      recordDeployment: op('recordDeployment'),
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
    flush: async () => {},
    close: async () => {},
  }
  return { engine, calls }
}

export function setup(answer?: Answer, options: Partial<AppOptions> = {}) {
  const { engine, calls } = fakeEngine(answer)
  const lines: Record<string, unknown>[] = []
  const logger = createLogger({ level: 'debug', write: (line) => lines.push(JSON.parse(line)) })
  const app = createApp({ engine, logger, maxBodyBytes: 64, trustedProxies: [], ...options })
  return { app, calls, lines, engine }
}

export const post = (body: string, headers: Record<string, string> = {}) => ({
  method: 'POST',
  body,
  headers: { 'Content-Type': 'application/json', ...headers },
})
