import type {
  DeploymentRecord,
  EventRecord,
  SourceFileKey,
  SourceFileResult,
  SourceProvider,
  SourceProviderFactory,
  SourceStore,
} from '../ports'
import { sourceAccess } from './access'
import { resolveCommit } from './commit'
import { cutExcerpt, DEFAULT_CONTEXT_LINES } from './excerpt'
import type { EventFrames, FrameJson, FrameSourceFailure } from './frame-json'
import { framesOfEvent } from './frames'
import { createConcurrencyLimit } from './limiter'
import { mapToRepositoryPath } from './paths'
import { createSecretBox, type SecretBox } from './secret-box'

/** The public GitHub API: the default code host API URL. */
export const GITHUB_API_URL = 'https://api.github.com'

/** Where source excerpts report what they swallow. Never given a token. */
export interface SourceLogger {
  warn(message: string, fields?: Record<string, unknown>): void
}

/** Options of {@link createSourceExcerpts}. */
export interface SourceExcerptsOptions {
  readonly store: SourceStore
  /**
   * Makes the code host client for a token: the host's adapter (the reference server's is
   * GitHub's, `apps/server/src/source-github.ts`). Without it, frames answer `not_configured`.
   */
  readonly providers?: SourceProviderFactory
  /** `SERVICE_SECRET_KEY`: decrypts project tokens. Without it only `serverToken` is used. */
  readonly secretKey?: string
  /** `SERVICE_GITHUB_TOKEN`: used for projects without a token of their own. */
  readonly serverToken?: string
  /** `SERVICE_GITHUB_API_URL`. @default GITHUB_API_URL */
  readonly serverApiUrl?: string
  /** Time a read waits for files not in the cache, in ms; later ones answer `timeout`. @default 3000 */
  readonly timeoutMs?: number
  /** Files fetched at once, over all reads. @default 4 */
  readonly concurrency?: number
  /** Distinct files fetched for one event; frames of further files answer `skipped`. @default 20 */
  readonly maxFiles?: number
  /** How long a `not_found` answer is cached, in ms. @default 900000 (15 minutes) */
  readonly notFoundTtlMs?: number
  /** @default () => new Date() */
  readonly now?: () => Date
  readonly logger?: SourceLogger
}

/** Resolves the excerpts of an event's frames at read time. */
export interface SourceExcerpts {
  /** The frames of an error event with their excerpts; never rejects. */
  framesFor(
    projectId: string,
    event: EventRecord,
    deployment: DeploymentRecord | null,
  ): Promise<EventFrames>
  /** Seals project tokens; `null` without a secret key. */
  readonly secretBox: SecretBox | null
  /** Whether a server-wide token is configured. */
  readonly hasServerToken: boolean
  /** The server's API URL. */
  readonly serverApiUrl: string
}

const TIMEOUT = Symbol('timeout')
const keyId = (k: SourceFileKey) => `${k.scope}\n${k.repository}\n${k.commitSha}\n${k.path}`

/**
 * Source excerpts, resolved lazily when an event is read (never when it is ingested): the files
 * of the in-app frames are read from the cache (`SourceStore`), else fetched from the code host
 * with at most `concurrency` requests at once; a read waits at most `timeoutMs` for them — a
 * fetch still running then goes on and fills the cache for the next read. A frame that cannot
 * be shown says why; nothing here fails the read.
 */
export function createSourceExcerpts(options: SourceExcerptsOptions): SourceExcerpts {
  const { store } = options
  const now = options.now ?? (() => new Date())
  const { providers } = options
  const serverApiUrl = (options.serverApiUrl ?? GITHUB_API_URL).replace(/\/+$/, '')
  const box = options.secretKey ? createSecretBox(options.secretKey) : null
  const timeoutMs = options.timeoutMs ?? 3000
  const maxFiles = options.maxFiles ?? 20
  const notFoundTtlMs = options.notFoundTtlMs ?? 15 * 60_000
  const limit = createConcurrencyLimit(options.concurrency ?? 4)
  const inflight = new Map<string, Promise<SourceFileResult>>()

  /** Fetches a file once at a time per key, caching `ok` and `not_found` answers. */
  function fetchFile(provider: SourceProvider, key: SourceFileKey): Promise<SourceFileResult> {
    const id = keyId(key)
    const running = inflight.get(id)
    if (running) return running
    const task = limit(async (): Promise<SourceFileResult> => {
      const result = await provider.getFile(key.repository, key.path, key.commitSha)
      if (result.status === 'ok' || result.status === 'not_found') {
        await store
          .saveSourceFile({
            ...key,
            status: result.status,
            content: result.status === 'ok' ? result.content : null,
            fetchedAt: now(),
          })
          .catch((error: unknown) =>
            options.logger?.warn('caching a source file failed', { error: String(error) }),
          )
      }
      return result
    })
      .catch((error: unknown): SourceFileResult => {
        options.logger?.warn('fetching a source file failed', { error: String(error) })
        return { status: 'unavailable', message: 'the file could not be fetched' }
      })
      .finally(() => inflight.delete(id))
    inflight.set(id, task)
    return task
  }

  /** Every key's answer: the cache first, then the provider within the time left. */
  async function filesFor(
    provider: SourceProvider,
    keys: readonly SourceFileKey[],
  ): Promise<Map<string, SourceFileResult | typeof TIMEOUT>> {
    const out = new Map<string, SourceFileResult | typeof TIMEOUT>()
    if (keys.length === 0) return out
    const cutoff = now().getTime() - notFoundTtlMs
    for (const hit of await store.findSourceFiles(keys)) {
      if (hit.status === 'ok' && hit.content !== null) {
        out.set(keyId(hit), { status: 'ok', content: hit.content })
      } else if (hit.status === 'not_found' && hit.fetchedAt.getTime() >= cutoff) {
        out.set(keyId(hit), {
          status: 'not_found',
          message: `${hit.repository}/${hit.path} at ${hit.commitSha} was not found on GitHub (cached answer)`,
        })
      }
    }
    const missing = keys.filter((k) => !out.has(keyId(k)))
    if (missing.length === 0) return out
    let timer: ReturnType<typeof setTimeout> | undefined
    const deadline = new Promise<typeof TIMEOUT>((resolve) => {
      timer = setTimeout(resolve, timeoutMs, TIMEOUT)
    })
    try {
      const answers = await Promise.all(
        missing.map((k) => Promise.race([fetchFile(provider, k), deadline])),
      )
      for (const [i, k] of missing.entries()) out.set(keyId(k), answers[i]!)
    } finally {
      clearTimeout(timer)
    }
    return out
  }

  async function resolve(
    projectId: string,
    event: EventRecord,
    deployment: DeploymentRecord | null,
  ): Promise<EventFrames> {
    const frames = framesOfEvent(event.payload)
    const commit = resolveCommit(event.payload, deployment)
    const sourceCommit = commit
      ? { repository: commit.repository, commit_sha: commit.commitSha, from: commit.from }
      : null
    if (frames.length === 0) return { source_commit: sourceCommit, frames: [] }
    const settings = await store.findSourceSettings(projectId)
    const context = settings?.contextLines ?? DEFAULT_CONTEXT_LINES
    const auth = sourceAccess(projectId, settings, {
      box,
      serverToken: options.serverToken,
      serverApiUrl,
    })
    const mapped = frames.map((f) => ({
      frame: f,
      mapping: mapToRepositoryPath(f.filename, settings?.pathPrefix ?? ''),
    }))

    // The distinct files to read, first come first served up to maxFiles.
    const keys = new Map<string, SourceFileKey>()
    if (commit && auth.ok) {
      for (const { frame, mapping } of mapped) {
        if (!mapping.inRepository || frame.lineno === null) continue
        const key = {
          scope: auth.scope,
          repository: commit.repository,
          path: mapping.path,
          commitSha: commit.commitSha,
        }
        if (keys.size < maxFiles || keys.has(keyId(key))) keys.set(keyId(key), key)
      }
    }
    const provider = auth.ok && providers ? providers(auth.credentials) : null
    const files = provider ? await filesFor(provider, [...keys.values()]) : new Map()

    const out = mapped.map(({ frame, mapping }): FrameJson => {
      const base = { ...frame, in_app: mapping.inRepository }
      const fail = (status: FrameSourceFailure, message: string): FrameJson => ({
        ...base,
        source: { status, message },
      })
      if (!mapping.inRepository) return fail('not_in_repository', mapping.reason)
      if (frame.lineno === null) return fail('not_found', 'the frame has no line number')
      if (!commit) {
        return fail(
          'no_commit',
          'the event has no commit_sha and repository, and no deployment of its environment is recorded',
        )
      }
      if (!auth.ok || !provider)
        return fail('not_configured', auth.ok ? 'no provider' : auth.message)
      const key = {
        scope: auth.scope,
        repository: commit.repository,
        path: mapping.path,
        commitSha: commit.commitSha,
      }
      if (!keys.has(keyId(key)))
        return fail('skipped', `only the files of the first ${maxFiles} in-app frames are fetched`)
      const file = files.get(keyId(key))
      if (file === undefined || file === TIMEOUT) {
        return fail(
          'timeout',
          `the file was not fetched within ${timeoutMs} ms; it will be shown on a later read`,
        )
      }
      if (file.status !== 'ok') return fail(file.status, file.message)
      const lines = cutExcerpt(file.content, frame.lineno, context)
      if (!lines) {
        return fail(
          'not_found',
          `${mapping.path} has no line ${frame.lineno} at ${commit.commitSha}: the commit may not be the one that ran`,
        )
      }
      return {
        ...base,
        source: {
          status: 'ok',
          repository: commit.repository,
          commit_sha: commit.commitSha,
          path: mapping.path,
          line: frame.lineno,
          lines,
          url: provider.lineUrl(commit.repository, mapping.path, commit.commitSha, frame.lineno),
        },
      }
    })
    return { source_commit: sourceCommit, frames: out }
  }

  return {
    secretBox: box,
    hasServerToken: Boolean(options.serverToken),
    serverApiUrl,
    async framesFor(projectId, event, deployment) {
      try {
        return await resolve(projectId, event, deployment)
      } catch (error) {
        // The excerpts are an extra: a database hiccup here never fails the event detail.
        options.logger?.warn('resolving source excerpts failed', { error: String(error) })
        const frames = framesOfEvent(event.payload).map((f) => ({
          ...f,
          in_app: false,
          source: {
            status: 'unavailable' as const,
            message: 'source excerpts could not be resolved',
          },
        }))
        return { source_commit: null, frames }
      }
    },
  }
}
