import type { EngineRequest, EngineResponse } from '../http'
import type { ManagementOperation, ProjectAccess } from '../management/access'
import type { AcceptanceStore, ArtifactStore, ProjectLookup, ProjectStore } from '../ports'
import { assembleBundle } from './upload-assemble'
import { bundleOperations } from './upload-bundles'
import { chunkOptions, uploadChunks } from './upload-chunks'
import type { UploadContext } from './upload-context'
import { caller, isResponse } from './upload-context'
import { DEFAULT_SOURCE_MAP_LIMITS, type SourceMapLimits } from './upload-limits'
import { uploadReleaseFile } from './upload-release-files'
import { createDeploy, createRelease, emptyList, updateRelease } from './upload-releases'
import { ok, sentryError } from './upload-respond'

/** One operation of the source-map API. */
export type SourceMapsOperation = (request: EngineRequest) => Promise<EngineResponse>

/**
 * The upload API Sentry's tooling speaks (`/api/0/…`, docs/sourcemaps.md "Uploading") and the
 * project's bundle list. Path parameters: `org` (any slug), `project` (a tis project id),
 * `version`, `id` and `bundle_id`.
 */
export interface SourceMapsApi {
  /** `GET /api/0/`: 200 with a valid token (what `sentry-cli info` and `login` check). */
  readonly apiRoot: SourceMapsOperation
  /** `GET /api/0/organizations/{org}/`: always 404 (the JS uploader then keeps its URL). */
  readonly organization: SourceMapsOperation
  /** `GET …/chunk-upload/`: the upload options. */
  readonly chunkUploadOptions: SourceMapsOperation
  /** `POST …/chunk-upload/`: multipart chunks (`file`, `file_gzip`). */
  readonly uploadChunks: SourceMapsOperation
  /** `POST …/artifactbundle/assemble/`. */
  readonly assembleArtifactBundle: SourceMapsOperation
  /** `POST …/releases/` (project and organization paths). */
  readonly createRelease: SourceMapsOperation
  /** `PUT …/releases/{version}/` (both paths). */
  readonly updateRelease: SourceMapsOperation
  /** `GET /api/0/organizations/{org}/repos/` and `GET …/releases/{v}/files/`: `[]`. */
  readonly emptyList: SourceMapsOperation
  /**
   * `POST /api/0/projects/{org}/{project}/releases/{version}/files/` (sentry-cli 2's legacy
   * per-file upload): a one-file bundle of the release; 200 when stored before.
   */
  readonly uploadReleaseFile: SourceMapsOperation
  /** `POST /api/0/organizations/{org}/releases/{version}/deploys/`: a tis deployment. */
  readonly createDeploy: SourceMapsOperation
  /** `GET /api/v1/projects/:id/artifact_bundles` (`limit`, `release`). */
  readonly listArtifactBundles: ManagementOperation
  /** `GET /api/v1/projects/:id/artifact_bundles/:bundle_id`: the bundle and its files. */
  readonly getArtifactBundle: ManagementOperation
  /** `DELETE /api/v1/projects/:id/artifact_bundles/:bundle_id` (owner or administrator): 204. */
  readonly deleteArtifactBundle: ManagementOperation
  /** The caps in force. */
  readonly limits: SourceMapLimits
}

/** Options of {@link createSourceMapsApi}. */
export interface SourceMapsApiOptions {
  /**
   * Bundles, files, chunks, and the projects uploads name; with `listProjects`, `--project` may
   * also be a project's number.
   */
  readonly store: ArtifactStore & ProjectLookup & Partial<Pick<ProjectStore, 'listProjects'>>
  /** The access rule: user access tokens; uploads need an owner or administrator. */
  readonly access: ProjectAccess
  /** Where a Sentry deploy records its tis deployment. @default deploys are answered, not kept */
  readonly deployments?: Pick<AcceptanceStore, 'append'>
  /** The server's public URL: the chunk URL's scheme behind a proxy that does not say. */
  readonly publicUrl?: string
  /** @default DEFAULT_SOURCE_MAP_LIMITS */
  readonly limits?: Partial<SourceMapLimits>
  /** @default () => new Date() */
  readonly now?: () => Date
}

/** Creates the source-map upload API over an {@link ArtifactStore}. */
export function createSourceMapsApi(options: SourceMapsApiOptions): SourceMapsApi {
  const ctx: UploadContext = {
    store: options.store,
    access: options.access,
    deployments: options.deployments,
    publicUrl: options.publicUrl,
    limits: { ...DEFAULT_SOURCE_MAP_LIMITS, ...options.limits },
    now: options.now ?? (() => new Date()),
  }
  const bind =
    (fn: (c: UploadContext, r: EngineRequest) => Promise<EngineResponse>): SourceMapsOperation =>
    (request) =>
      fn(ctx, request)
  return {
    apiRoot: async (request) => {
      const auth = await caller(ctx, request)
      return isResponse(auth) ? auth : ok({ auth: { scopes: ['org:ci'] }, user: null })
    },
    organization: async () =>
      sentryError(404, 'tis has no organizations: any --org is accepted by the upload API.'),
    chunkUploadOptions: bind(chunkOptions),
    uploadChunks: bind(uploadChunks),
    assembleArtifactBundle: bind(assembleBundle),
    createRelease: bind(createRelease),
    updateRelease: bind(updateRelease),
    emptyList: bind(emptyList),
    uploadReleaseFile: bind(uploadReleaseFile),
    createDeploy: bind(createDeploy),
    ...bundleOperations(ctx),
    limits: ctx.limits,
  }
}
