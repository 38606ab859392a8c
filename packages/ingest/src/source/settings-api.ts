import type { SourceSettings, SourceSettingsAnswer } from '@tis/schema'
import { type EngineRequest, type EngineResponse, json } from '../http'
import type { ManagementOperation, ProjectAccess } from '../management/access'
import { readManagementBody } from '../management/body'
import type { ProjectRecord, SourceSettingsRecord, SourceStore } from '../ports'
import { DEFAULT_CONTEXT_LINES, MAX_CONTEXT_LINES } from './excerpt'
import type { SourceExcerpts } from './excerpts'
import { normalizePathPrefix } from './paths'

const FIELDS = ['github_token', 'path_prefix', 'context_lines', 'github_api_url'] as const
const MAX_TOKEN = 1_024
const MAX_PREFIX = 1_024
const MAX_URL = 2_048

/** `GET` and `PUT /api/v1/projects/:id/source_settings`. */
export interface SourceSettingsApi {
  /** `GET /api/v1/projects/:id/source_settings` — anyone who sees the project; never the token. */
  getSourceSettings: ManagementOperation
  /** `PUT /api/v1/projects/:id/source_settings` — the owner or an administrator. */
  setSourceSettings: ManagementOperation
}

/** Options of {@link createSourceSettingsApi}. */
export interface SourceSettingsApiOptions {
  /** Where each project's settings are kept. */
  readonly store: Pick<SourceStore, 'findSourceSettings' | 'saveSourceSettings'>
  /** Who may see and change which project's settings (see `createProjectAccess`). */
  readonly access: Pick<ProjectAccess, 'project'>
  /** The server's side: the secret box that seals tokens, its own token and API URL. */
  readonly excerpts: Pick<SourceExcerpts, 'secretBox' | 'hasServerToken' | 'serverApiUrl'>
  /** @default () => new Date() */
  readonly now?: () => Date
}

/** The JSON of a project's source settings: the token is write-only (`github_token_set`). */
export function sourceSettingsJson(
  s: SourceSettingsRecord | null,
  server: Pick<SourceExcerpts, 'hasServerToken' | 'serverApiUrl'>,
): SourceSettings {
  return {
    github_token_set: Boolean(s?.githubTokenSealed),
    server_token_available: server.hasServerToken,
    path_prefix: s?.pathPrefix ?? null,
    context_lines: s?.contextLines ?? DEFAULT_CONTEXT_LINES,
    github_api_url: s?.githubApiUrl ?? null,
    effective_github_api_url: s?.githubApiUrl ?? server.serverApiUrl,
    updated_at: s?.updatedAt.toISOString() ?? null,
  }
}

type Changes = { -readonly [K in keyof SourceSettingsRecord]?: SourceSettingsRecord[K] } & {
  token?: string | null
}

/** Validates the settings: each field absent (kept), `null` (cleared) or a valid value. */
function parseChanges(
  o: Readonly<Record<string, unknown>>,
): { ok: true; value: Changes } | { ok: false; errors: string[] } {
  const errors: string[] = []
  const value: Changes = {}
  for (const key of Object.keys(o)) {
    if (!(FIELDS as readonly string[]).includes(key))
      errors.push(`${key} is not a source setting (expected ${FIELDS.join(', ')})`)
  }
  const token = o['github_token']
  if (token === null) value.token = null
  else if (token !== undefined) {
    if (typeof token !== 'string' || !/^[\x21-\x7e]+$/.test(token) || token.length > MAX_TOKEN) {
      errors.push(
        `github_token must be a token of printable ASCII characters without spaces, at most ${MAX_TOKEN} characters, or null to remove it`,
      )
    } else value.token = token
  }
  const prefix = o['path_prefix']
  if (prefix === null || prefix === '') value.pathPrefix = null
  else if (prefix !== undefined) {
    if (typeof prefix !== 'string' || prefix.length > MAX_PREFIX || prefix.includes('\u0000')) {
      errors.push(`path_prefix must be a string of at most ${MAX_PREFIX} characters, or null`)
    } else value.pathPrefix = normalizePathPrefix(prefix)
  }
  const lines = o['context_lines']
  if (lines === null) value.contextLines = null
  else if (lines !== undefined) {
    if (
      typeof lines !== 'number' ||
      !Number.isInteger(lines) ||
      lines < 0 ||
      lines > MAX_CONTEXT_LINES
    ) {
      errors.push(
        `context_lines must be an integer from 0 to ${MAX_CONTEXT_LINES}, or null for the default (${DEFAULT_CONTEXT_LINES})`,
      )
    } else value.contextLines = lines
  }
  const url = o['github_api_url']
  if (url === null || url === '') value.githubApiUrl = null
  else if (url !== undefined) {
    let ok = typeof url === 'string' && url.length <= MAX_URL
    if (ok) {
      try {
        const parsed = new URL(url as string)
        ok =
          (parsed.protocol === 'https:' || parsed.protocol === 'http:') &&
          parsed.username === '' &&
          parsed.password === '' &&
          parsed.search === '' &&
          parsed.hash === ''
      } catch {
        ok = false
      }
    }
    if (!ok)
      errors.push(
        'github_api_url must be an http(s) URL without credentials, query or fragment (e.g. https://ghe.example.com/api/v3), or null',
      )
    else value.githubApiUrl = (url as string).replace(/\/+$/, '')
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value }
}

/** Creates the source settings operations. */
export function createSourceSettingsApi(options: SourceSettingsApiOptions): SourceSettingsApi {
  const { store, access, excerpts } = options
  const now = options.now ?? (() => new Date())

  const withProject = (
    manage: boolean,
    fn: (request: EngineRequest, project: ProjectRecord) => Promise<EngineResponse>,
  ): ManagementOperation => access.project(manage, fn)

  return {
    getSourceSettings: withProject(false, async (_request, project) =>
      json(200, {
        source_settings: sourceSettingsJson(await store.findSourceSettings(project.id), excerpts),
      } satisfies SourceSettingsAnswer),
    ),

    setSourceSettings: withProject(true, async (request, project) => {
      // The settings, wrapped as {"source_settings": {…}} or not (the same body rule as every
      // management write).
      const body = readManagementBody(request, {
        key: 'source_settings',
        fields: FIELDS,
        bare: true,
      })
      if (!body.ok) return body.response
      const parsed = parseChanges(body.value ?? {})
      if (!parsed.ok) return json(422, { errors: parsed.errors })
      const { token, ...changes } = parsed.value
      if (typeof token === 'string' && !excerpts.secretBox) {
        return json(422, {
          errors: [
            'github_token cannot be stored: the server has no SERVICE_SECRET_KEY to encrypt it with; set SERVICE_SECRET_KEY (or use SERVICE_GITHUB_TOKEN for every project)',
          ],
        })
      }
      const current = await store.findSourceSettings(project.id)
      const next: SourceSettingsRecord = {
        projectId: project.id,
        githubTokenSealed: current?.githubTokenSealed ?? null,
        pathPrefix: current?.pathPrefix ?? null,
        contextLines: current?.contextLines ?? null,
        githubApiUrl: current?.githubApiUrl ?? null,
        ...changes,
        ...(token === undefined
          ? {}
          : {
              githubTokenSealed:
                token === null ? null : excerpts.secretBox!.seal(token, project.id),
            }),
        updatedAt: now(),
      }
      await store.saveSourceSettings(next)
      return json(200, {
        source_settings: sourceSettingsJson(next, excerpts),
      } satisfies SourceSettingsAnswer)
    }),
  }
}
