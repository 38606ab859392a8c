import type { SourceExcerptsOptions } from '@tis/ingest'
import type { ServerConfig } from './config'
import type { Logger } from './logger'
import { createGitHubSourceProviders } from './source-github'

/**
 * The source excerpt options from the configuration: GitHub (or GitHub Enterprise at
 * `SERVICE_GITHUB_API_URL`) over the process's `fetch`, the server-wide token and the secret key
 * that seals project tokens. Neither secret is ever logged.
 */
export function sourceOptions(
  config: ServerConfig,
  logger: Logger,
): Omit<SourceExcerptsOptions, 'store' | 'now'> {
  const { secretKey, githubToken, githubApiUrl } = config.sources
  return {
    providers: createGitHubSourceProviders({ logger }),
    serverApiUrl: githubApiUrl,
    ...(secretKey ? { secretKey } : {}),
    ...(githubToken ? { serverToken: githubToken } : {}),
  }
}
