// A code host that serves the files of source excerpts (GitHub, GitHub Enterprise): an adapter
// implements it with HTTP (see `@tis/source-github`); the engine never fetches anything itself.

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
