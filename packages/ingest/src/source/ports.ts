// The ports of source excerpts: where files come from (a code host) and where fetched files and
// each project's settings are kept (the database).

/** Why a file could not be fetched. */
export type SourceFailure =
  /** The file, the commit or the repository does not exist — or the token cannot see it. */
  | 'not_found'
  /** The token was refused (401), or may not read the repository (403). */
  | 'no_access'
  /** The code host's rate limit for this token is spent until `retryAt`. */
  | 'rate_limited'
  /** The file is larger than the provider's limit. */
  | 'too_large'
  /** The code host answered an error (5xx) or could not be reached. */
  | 'unavailable'

/** What a {@link SourceProvider} answers for one file. */
export type SourceFileResult =
  | { readonly status: 'ok'; readonly content: string }
  | {
      readonly status: SourceFailure
      /** Why, in words a developer can act on; never contains the token. */
      readonly message: string
      /** For `rate_limited`: when the limit resets. */
      readonly retryAt?: Date
    }

/** A code host that serves files of a repository at a commit (GitHub, GitHub Enterprise). */
export interface SourceProvider {
  /** The file `path` of `repository` (`owner/name`) at `ref` (a commit sha). Never rejects. */
  getFile(repository: string, path: string, ref: string): Promise<SourceFileResult>
  /** The web page of `path` at `ref`, pointing at `line`. */
  lineUrl(repository: string, path: string, ref: string, line: number): string
}

/** The credentials a provider is made with. */
export interface SourceCredentials {
  readonly token: string
  /** The API base URL, e.g. `https://api.github.com` or `https://ghe.example.com/api/v3`. */
  readonly apiUrl: string
}

/** Makes the provider for a set of credentials (one per project token). */
export type SourceProviderFactory = (credentials: SourceCredentials) => SourceProvider

/** The key of a cached file: a file at a commit never changes. */
export interface SourceFileKey {
  /**
   * Whose credentials fetched it: `server:<api url>` for the server's token, `project:<id>` for a
   * project's own token — so a project never reads a file fetched with another project's token.
   */
  readonly scope: string
  readonly repository: string
  readonly path: string
  /** Lower-case hex, as resolved (7 to 40 characters). */
  readonly commitSha: string
}

/** A cached answer: the file, or the fact that it was not found (cached for a short while). */
export interface CachedSourceFile extends SourceFileKey {
  readonly status: 'ok' | 'not_found'
  /** The file's text for `ok`; `null` for `not_found`. */
  readonly content: string | null
  readonly fetchedAt: Date
}

/** A project's source settings as stored (the token sealed, see `createSecretBox`). */
export interface SourceSettingsRecord {
  readonly projectId: string
  /** The project's GitHub token, sealed with the server's secret key; `null` when unset. */
  readonly githubTokenSealed: string | null
  /** Prefix stripped from absolute paths and URLs (normalised, ends with `/`); `null` when unset. */
  readonly pathPrefix: string | null
  /** Lines shown before and after a frame's line; `null` for the default. */
  readonly contextLines: number | null
  /** API base URL of the project's GitHub (Enterprise); `null` for the server's. */
  readonly githubApiUrl: string | null
  readonly updatedAt: Date
}

/** Storage of fetched files and of each project's source settings. */
export interface SourceStore {
  /** The cached answers among `keys` (any order; missing keys are not cached). */
  findSourceFiles(keys: readonly SourceFileKey[]): Promise<readonly CachedSourceFile[]>
  /** Stores an answer, replacing a cached one of the same key. */
  saveSourceFile(file: CachedSourceFile): Promise<void>
  /** The project's settings, or `null` when never set. */
  findSourceSettings(projectId: string): Promise<SourceSettingsRecord | null>
  /** Creates or replaces the project's settings. */
  saveSourceSettings(settings: SourceSettingsRecord): Promise<void>
}
