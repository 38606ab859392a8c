import { createHash, randomUUID } from 'node:crypto'
import { runInThisContext } from 'node:vm'
import { type NormalizedEvent, parseEventEnvelope, sentryEventEnvelope } from '@tis/schema'
import * as esbuild from 'esbuild'
import { issueGrouping } from '../src/ingest/grouping'
import type { ArtifactFileType, ArtifactLookup, StoredArtifact, WriteOp } from '../src/ports'

// Real minified bundles and their maps (esbuild), real V8 stacks from running them, Sentry
// events made by the real mapping, and an in-memory ArtifactLookup that records its calls.
// Test support only.

/** A build: the minified script and its map (sources `../src/…`, with `sourcesContent`). */
export interface Build {
  readonly js: string
  readonly map: string
}

/** Bundles `entry` of the virtual `files` (paths under `/app/`) minified as an IIFE. */
export async function build(
  files: Readonly<Record<string, string>>,
  options: { entry?: string; outfile?: string; sourcemap?: 'external' | 'inline' } = {},
): Promise<Build> {
  const outfile = options.outfile ?? '/app/dist/app.min.js'
  const result = await esbuild.build({
    entryPoints: [options.entry ?? '/app/src/main.js'],
    bundle: true,
    minify: true,
    format: 'iife',
    sourcemap: options.sourcemap ?? 'external',
    write: false,
    outfile,
    absWorkingDir: '/app',
    logLevel: 'silent',
    plugins: [
      {
        name: 'virtual-files',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (a) => {
            const base = a.path.startsWith('.')
              ? `file://${a.resolveDir}/`
              : 'file:///app/node_modules/'
            const path = a.path.startsWith('/') ? a.path : new URL(a.path, base).pathname
            return { path: path.endsWith('.js') ? path : `${path}/index.js` }
          })
          b.onLoad({ filter: /.*/ }, (a) => {
            const contents = files[a.path]
            if (contents === undefined) throw new Error(`no virtual file ${a.path}`)
            return { contents, loader: 'js', resolveDir: a.path.replace(/\/[^/]*$/, '') }
          })
        },
      },
    ],
  })
  const js = result.outputFiles.find((f) => f.path === outfile)?.text ?? ''
  const map = result.outputFiles.find((f) => f.path === `${outfile}.map`)?.text ?? ''
  return { js, map }
}

/** A frame as Sentry's SDKs send it (oldest first in the event). */
export interface SentFrame {
  function?: string
  filename: string
  lineno: number
  colno: number
  in_app: boolean
}

/** Runs scripts in order under their URLs and calls `run()`; the thrown error's frames, innermost first. */
export function framesOfRun(
  scripts: readonly { url: string; js: string }[],
  run = '__run',
): SentFrame[] {
  for (const { url, js } of scripts) runInThisContext(js, { filename: url })
  try {
    ;(globalThis as unknown as Record<string, () => void>)[run]?.()
  } catch (error) {
    return ((error as Error).stack ?? '')
      .split('\n')
      .slice(1)
      .map((line) => /^\s*at (?:(.*?) \()?(.*):(\d+):(\d+)\)?$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .filter((m) => scripts.some((s) => s.url === m[2]))
      .map((m) => ({
        ...(m[1] ? { function: m[1] } : {}),
        filename: m[2] as string,
        lineno: Number(m[3]),
        colno: Number(m[4]),
        in_app: true,
      }))
  }
  throw new Error('the run did not throw')
}

/** A Sentry error event through the real mapping, as the projection receives it. */
export function sentryEvent(
  frames: readonly SentFrame[],
  extra: {
    release?: string
    dist?: string
    images?: { code_file: string; debug_id: string }[]
  } = {},
): NormalizedEvent {
  const mapped = sentryEventEnvelope({
    event_id: randomUUID().replaceAll('-', ''),
    platform: 'javascript',
    ...(extra.release ? { release: extra.release } : {}),
    ...(extra.dist ? { dist: extra.dist } : {}),
    exception: {
      values: [{ type: 'Error', value: 'boom x!', stacktrace: { frames: [...frames].reverse() } }],
    },
    ...(extra.images
      ? { debug_meta: { images: extra.images.map((i) => ({ type: 'sourcemap', ...i })) } }
      : {}),
  })
  const parsed = parseEventEnvelope(mapped)
  if (!parsed.ok) throw new Error(JSON.stringify(parsed))
  return parsed.value
}

/** The projection's op for an error event. */
export function errorOp(
  projectId: string,
  event: NormalizedEvent,
): Extract<WriteOp, { type: 'event' }> {
  return {
    type: 'event',
    id: randomUUID(),
    projectId,
    receivedAt: new Date(),
    event,
    occurredAt: new Date(event.occurred_at),
    issue: issueGrouping(event),
    monitor: null,
    deployment: null,
  }
}

/** A file to put in a {@link MemoryLookup} bundle. */
export interface MemoryFile {
  url: string
  type: ArtifactFileType
  content: string | Uint8Array
  debugId?: string
  headers?: Record<string, string>
}

/** An in-memory {@link ArtifactLookup}; `calls` lists the port calls made, in order. */
export class MemoryLookup implements ArtifactLookup {
  constructor(readonly projectId = 'p1') {}
  readonly files: StoredArtifact[] = []
  readonly contents = new Map<string, Uint8Array>()
  readonly calls: { method: string; args: unknown[] }[] = []

  /** Stores a bundle; answers its id. */
  add(
    files: readonly MemoryFile[],
    release: string | null = null,
    dist: string | null = null,
  ): string {
    const bundleId = randomUUID()
    for (const f of files) {
      const content =
        typeof f.content === 'string' ? new TextEncoder().encode(f.content) : f.content
      const sha1 = createHash('sha1').update(content).digest('hex')
      this.contents.set(sha1, content)
      const headers = { ...f.headers, ...(f.debugId ? { 'debug-id': f.debugId } : {}) }
      this.files.push({
        url: f.url,
        type: f.type,
        debugId: f.debugId ?? null,
        headers,
        sha1,
        size: content.length,
        bundleId,
        release,
        dist,
      })
    }
    return bundleId
  }

  count(method: string): number {
    return this.calls.filter((c) => c.method === method).length
  }

  async findArtifactsByDebugId(projectId: string, debugIds: readonly string[]) {
    this.calls.push({ method: 'findArtifactsByDebugId', args: [projectId, debugIds] })
    if (projectId !== this.projectId) return []
    return this.files.filter((f) => f.debugId !== null && debugIds.includes(f.debugId))
  }

  async findArtifactsByUrl(
    projectId: string,
    release: string,
    dist: string | null,
    urls: readonly string[],
  ) {
    this.calls.push({ method: 'findArtifactsByUrl', args: [projectId, release, dist, urls] })
    if (projectId !== this.projectId) return []
    return this.files.filter(
      (f) => f.release === release && f.dist === dist && urls.includes(f.url),
    )
  }

  async readArtifacts(sha1s: readonly string[]) {
    this.calls.push({ method: 'readArtifacts', args: [sha1s] })
    return new Map(
      sha1s.flatMap((s) => (this.contents.has(s) ? [[s, this.contents.get(s) as Uint8Array]] : [])),
    )
  }

  async touchArtifactBundles(bundleIds: readonly string[], at: Date) {
    this.calls.push({ method: 'touchArtifactBundles', args: [bundleIds, at] })
  }
}
