import type { SourceCredentials, SourceSettingsRecord } from '../ports'
import type { SecretBox } from './secret-box'

/** The credentials a project's files are fetched with, or why there are none. */
export type SourceAccess =
  | {
      readonly ok: true
      readonly credentials: SourceCredentials
      /** Cache scope: files fetched with these credentials are shared only within it. */
      readonly scope: string
    }
  | { readonly ok: false; readonly message: string }

/** The server side of {@link sourceAccess}. */
export interface ServerSourceAccess {
  /** Opens project tokens; `null` without `SERVICE_SECRET_KEY`. */
  readonly box: SecretBox | null
  /** `SERVICE_GITHUB_TOKEN`. */
  readonly serverToken: string | undefined
  /** `SERVICE_GITHUB_API_URL`, without a trailing slash. */
  readonly serverApiUrl: string
}

/**
 * Which token reads a project's files: its own (sent to its `github_api_url`, else the server's),
 * else the server-wide token — which is only ever sent to the server's API URL, so a project
 * with an API URL of its own needs a token of its own.
 */
export function sourceAccess(
  projectId: string,
  settings: SourceSettingsRecord | null,
  server: ServerSourceAccess,
): SourceAccess {
  const projectApi = settings?.githubApiUrl ?? null
  if (settings?.githubTokenSealed) {
    if (!server.box) {
      return {
        ok: false,
        message:
          "the project's GitHub token cannot be decrypted: the server has no SERVICE_SECRET_KEY",
      }
    }
    const token = server.box.open(settings.githubTokenSealed, projectId)
    if (token === null) {
      return {
        ok: false,
        message:
          "the project's GitHub token cannot be decrypted with the current SERVICE_SECRET_KEY; set it again",
      }
    }
    const apiUrl = projectApi ?? server.serverApiUrl
    return { ok: true, credentials: { token, apiUrl }, scope: `project:${projectId}:${apiUrl}` }
  }
  if (!server.serverToken) {
    return {
      ok: false,
      message:
        "no GitHub token: set github_token in the project's source settings, or SERVICE_GITHUB_TOKEN on the server",
    }
  }
  if (projectApi !== null && projectApi !== server.serverApiUrl) {
    return {
      ok: false,
      message:
        "the project's github_api_url needs a project github_token: the server's token is only sent to SERVICE_GITHUB_API_URL",
    }
  }
  const credentials = { token: server.serverToken, apiUrl: server.serverApiUrl }
  return { ok: true, credentials, scope: `server:${server.serverApiUrl}` }
}
