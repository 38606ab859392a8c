import { resolve } from 'node:path'
import { bundleDebugId, writeArtifactBundle } from '@tis/ingest'
import { type Command, UsageError } from './command'
import { table } from './format'
import { id } from './request-parts'
import { collectArtifacts } from './sourcemap-files'
import { uploadBundle } from './sourcemap-upload'

/** The flags of the `sourcemaps` commands. */
export const SOURCEMAP_FLAGS = ['project', 'release', 'dist', 'url-prefix'] as const

/** A stored artifact bundle as `GET /api/v1/projects/:id/artifact_bundles` lists it. */
export interface ArtifactBundleJson {
  readonly id: string
  readonly bundle_debug_id: string
  readonly release: string | null
  readonly dist: string | null
  readonly file_count: number
  readonly size: number
  readonly debug_ids: readonly string[]
  readonly uploaded_at: string
  readonly last_used_at: string
}

/** Bundles as a table. */
export function bundleTable(bundles: readonly ArtifactBundleJson[]): string {
  return table(
    ['ID', 'RELEASE', 'DIST', 'FILES', 'BYTES', 'DEBUG IDS', 'UPLOADED', 'LAST USED'],
    bundles.map((b) => [
      b.id,
      b.release ?? '-',
      b.dist ?? '-',
      String(b.file_count),
      String(b.size),
      b.debug_ids.join(',') || '-',
      b.uploaded_at,
      b.last_used_at,
    ]),
  )
}

const needsProject = (command: string) => (o: { query?: Record<string, string | undefined> }) =>
  o.query?.['project'] ? undefined : `${command} needs --project <project_id>`

/** `tis sourcemaps upload|list|delete`: a project's source maps (artifact bundles). */
export const SOURCEMAP_COMMANDS: readonly Command[] = [
  {
    name: 'sourcemaps upload',
    args: ['<dir>'],
    options: '--project <project_id> [--release <r>] [--dist <d>] [--url-prefix <~/path>]',
    summary:
      "Upload the .js/.mjs/.cjs files and source maps below <dir> as one artifact bundle (Sentry's protocol, as sentry-cli does); files need debug IDs (sentry-cli sourcemaps inject) unless --release is given.",
    validate({ options }) {
      const q = options.query ?? {}
      if (q['dist'] !== undefined && q['release'] === undefined) return '--dist needs --release'
      return needsProject('sourcemaps upload')(options)
    },
    async run({ client, args, options }) {
      const q = options.query ?? {}
      const project = q['project']!
      const release = q['release']
      const dist = q['dist']
      const dir = args[0]!
      const files = await collectArtifacts(resolve(dir), q['url-prefix'] ?? '~/').catch(
        (error: NodeJS.ErrnoException) => {
          throw new UsageError(`cannot read ${dir}: ${error.code ?? error.message}`)
        },
      )
      if (files.length === 0) throw new UsageError(`no .js, .mjs, .cjs or .map files in ${dir}`)
      const debugIds = [...new Set(files.map((f) => f.headers?.['debug-id']).filter(Boolean))]
      if (debugIds.length === 0 && release === undefined) {
        throw new UsageError(
          `no debug IDs in ${dir}: run \`sentry-cli sourcemaps inject ${dir}\` (or a Sentry bundler plugin) first, or pass --release <release> to match frames by release and URL`,
        )
      }
      const bundleId = bundleDebugId(files)
      const bundle = writeArtifactBundle({ files, release, dist, debugId: bundleId })
      const outcome = await uploadBundle(client, bundle, { project, release, dist })
      const json = {
        project,
        release: release ?? null,
        dist: dist ?? null,
        bundle_debug_id: bundleId,
        checksum: outcome.checksum,
        size: bundle.length,
        chunks: outcome.chunks,
        chunks_sent: outcome.chunksSent,
        files: files.map((f) => ({
          url: f.url,
          type: f.type,
          debug_id: f.headers?.['debug-id'] ?? null,
          sourcemap: f.headers?.['sourcemap'] ?? null,
          size: f.content.length,
        })),
      }
      const human = () =>
        `Uploaded ${files.length} file${files.length === 1 ? '' : 's'} to project ${project}` +
        `${release === undefined ? '' : `, release ${release}`}${dist === undefined ? '' : `, dist ${dist}`}: ` +
        `bundle ${bundleId}, ${bundle.length} bytes, ${outcome.chunksSent} of ${outcome.chunks} chunks sent (the others were on the server).\n` +
        table(
          ['URL', 'TYPE', 'DEBUG ID', 'SOURCEMAP'],
          json.files.map((f) => [f.url, f.type, f.debug_id ?? '-', f.sourcemap ?? '-']),
        )
      return { json, human }
    },
  },
  {
    name: 'sourcemaps list',
    args: [],
    options: '--project <project_id>',
    summary:
      "List a project's uploaded source map bundles: release, files, bytes, debug IDs, upload and last use.",
    validate: ({ options }) => needsProject('sourcemaps list')(options),
    async run({ client, options }) {
      const path = `/api/v1/projects/${id(options.query!['project']!)}/artifact_bundles`
      const json = (await client.request('GET', path)) as { artifact_bundles: ArtifactBundleJson[] }
      return { json, human: () => bundleTable(json.artifact_bundles) }
    },
  },
  {
    name: 'sourcemaps delete',
    args: ['<bundle_id>'],
    options: '--project <project_id>',
    summary:
      'Delete an uploaded source map bundle (frames it resolved stay resolved in stored events).',
    validate: ({ options }) => needsProject('sourcemaps delete')(options),
    async run({ client, args, options }) {
      const path = `/api/v1/projects/${id(options.query!['project']!)}/artifact_bundles/${id(args[0]!)}`
      const json = await client.request('DELETE', path)
      return { json, human: () => `Deleted source map bundle ${args[0]}.\n` }
    },
  },
]
