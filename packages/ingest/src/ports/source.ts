// Where fetched source files and each project's source settings are kept (the database).

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
