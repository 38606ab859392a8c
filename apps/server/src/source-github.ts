import { createHash } from 'node:crypto'
import type {
  SourceCredentials,
  SourceFileResult,
  SourceLogger,
  SourceProvider,
  SourceProviderFactory,
} from '@tis/ingest'

/** Files larger than this are not fetched (`too_large`): 1 MiB. */
export const MAX_SOURCE_FILE_BYTES = 1_048_576
// GitHub asks clients that hit a secondary limit without a retry-after to wait at least a minute.
const SECONDARY_LIMIT_WAIT_MS = 60_000

/** Options of {@link createGitHubSourceProviders}. */
export interface GitHubSourceOptions {
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch
  /** @default () => new Date() */
  readonly now?: () => Date
  /** Time allowed for one GitHub request, in ms. @default 10000 */
  readonly requestTimeoutMs?: number
  /** @default MAX_SOURCE_FILE_BYTES */
  readonly maxBytes?: number
  readonly logger?: SourceLogger
}

/**
 * The web address of a GitHub API base: `https://api.github.com` → `https://github.com`, and
 * likewise `api.<name>.ghe.com` (Enterprise Cloud) → `<name>.ghe.com`; a GitHub Enterprise Server
 * API at `https://HOST/api/v3` → `https://HOST`.
 */
export function githubWebUrl(apiUrl: string): string {
  const url = new URL(apiUrl)
  const path = url.pathname.replace(/\/+$/, '')
  if (url.hostname.startsWith('api.') && path === '') {
    return `${url.protocol}//${url.host.slice('api.'.length)}`
  }
  return `${url.origin}${path.replace(/\/api\/v3$/, '')}`
}

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/')

async function messageOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown }
    return typeof body.message === 'string' ? body.message : ''
  } catch {
    return ''
  }
}

/**
 * GitHub (and GitHub Enterprise) as a {@link SourceProvider}: `GET {apiUrl}/repos/{owner}/{repo}/contents/{path}?ref={sha}`
 * with `Accept: application/vnd.github.raw+json` and the token as `Bearer`. Rate limits are
 * respected per token and API URL, shared by every provider the factory makes: once GitHub
 * answers `x-ratelimit-remaining: 0` (or a 403/429 rate-limit answer with `retry-after` or
 * `x-ratelimit-reset`), no request is sent with that token until the reset, and files answer
 * `rate_limited`. The token is only ever sent in the `Authorization` header to `apiUrl`.
 */
export function createGitHubSourceProviders(
  options: GitHubSourceOptions = {},
): SourceProviderFactory {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const now = options.now ?? (() => new Date())
  const maxBytes = options.maxBytes ?? MAX_SOURCE_FILE_BYTES
  const timeoutMs = options.requestTimeoutMs ?? 10_000
  /** Reset time (ms) per (API URL, token digest) whose limit is spent. */
  const limitedUntil = new Map<string, number>()

  function rateLimitReset(headers: Headers, limited: boolean): number | null {
    const at = now().getTime()
    const retryAfter = headers.get('retry-after')
    if (retryAfter !== null && /^\d+$/.test(retryAfter.trim())) {
      return at + Number(retryAfter.trim()) * 1000
    }
    const remaining = headers.get('x-ratelimit-remaining')
    const reset = headers.get('x-ratelimit-reset')
    if (remaining?.trim() === '0' && reset !== null && /^\d+$/.test(reset.trim())) {
      return Number(reset.trim()) * 1000
    }
    return limited ? at + SECONDARY_LIMIT_WAIT_MS : null
  }

  return (credentials: SourceCredentials): SourceProvider => {
    const apiUrl = credentials.apiUrl.replace(/\/+$/, '')
    const gate = `${apiUrl} ${createHash('sha256').update(credentials.token).digest('hex')}`
    const web = githubWebUrl(apiUrl)

    function limited(until: number): SourceFileResult {
      const retryAt = new Date(until)
      return {
        status: 'rate_limited',
        message: `GitHub's rate limit for this token is spent until ${retryAt.toISOString()}`,
        retryAt,
      }
    }

    async function request(repository: string, path: string, ref: string): Promise<Response> {
      const url = `${apiUrl}/repos/${repository.split('/').map(encodeURIComponent).join('/')}/contents/${encodePath(path)}?ref=${encodeURIComponent(ref)}`
      return doFetch(url, {
        headers: {
          Accept: 'application/vnd.github.raw+json',
          Authorization: `Bearer ${credentials.token}`,
          'X-GitHub-Api-Version': '2022-11-28',
          'User-Agent': 'tis-source-excerpts',
        },
        signal: AbortSignal.timeout(timeoutMs),
      })
    }

    async function answer(response: Response, where: string): Promise<SourceFileResult> {
      const reset = rateLimitReset(response.headers, false)
      if (reset !== null && response.headers.get('x-ratelimit-remaining')?.trim() === '0') {
        limitedUntil.set(gate, reset)
      }
      if (response.status === 200) {
        const length = Number(response.headers.get('content-length') ?? '0')
        if (length > maxBytes) return tooLarge(where, maxBytes)
        const content = await response.text()
        if (content.length > maxBytes) return tooLarge(where, maxBytes)
        const type = response.headers.get('content-type') ?? ''
        if (type.startsWith('application/json') && content.trimStart().startsWith('[')) {
          return { status: 'not_found', message: `${where} is a directory, not a file` }
        }
        // A NUL byte means a binary file: no excerpt, and PostgreSQL text could not cache it.
        if (content.includes('\u0000')) {
          return { status: 'not_found', message: `${where} is a binary file` }
        }
        return { status: 'ok', content }
      }
      const message = await messageOf(response)
      const quoted = message ? ` (${message})` : ''
      if (response.status === 404) {
        return {
          status: 'not_found',
          message: `${where} was not found on GitHub${quoted}; a private repository the token cannot see also answers 404`,
        }
      }
      if (response.status === 401) {
        return {
          status: 'no_access',
          message: `GitHub refused the token${quoted}: it is wrong, expired or revoked`,
        }
      }
      const rateLimited =
        response.status === 429 ||
        (response.status === 403 &&
          (response.headers.get('x-ratelimit-remaining')?.trim() === '0' ||
            response.headers.has('retry-after') ||
            /rate limit/i.test(message)))
      if (rateLimited) {
        const until = rateLimitReset(response.headers, true)!
        limitedUntil.set(gate, until)
        return limited(until)
      }
      if (response.status === 403) {
        return {
          status: 'no_access',
          message: `the token may not read this repository's contents${quoted}; it needs Contents: read`,
        }
      }
      options.logger?.warn('GitHub answered an unexpected status', { status: response.status })
      return { status: 'unavailable', message: `GitHub answered ${response.status}${quoted}` }
    }

    return {
      async getFile(repository, path, ref) {
        const until = limitedUntil.get(gate)
        if (until !== undefined) {
          if (now().getTime() < until) return limited(until)
          limitedUntil.delete(gate)
        }
        const where = `${repository}/${path} at ${ref}`
        try {
          return await answer(await request(repository, path, ref), where)
        } catch (error) {
          const reason = error instanceof Error ? error.name : 'error'
          options.logger?.warn('GitHub could not be reached', { reason })
          return { status: 'unavailable', message: `GitHub could not be reached (${reason})` }
        }
      },
      lineUrl(repository, path, ref, line) {
        return `${web}/${repository}/blob/${ref}/${encodePath(path)}#L${line}`
      },
    }
  }
}

function tooLarge(where: string, maxBytes: number): SourceFileResult {
  return {
    status: 'too_large',
    message: `${where} is larger than ${maxBytes} bytes; no excerpt is shown`,
  }
}
