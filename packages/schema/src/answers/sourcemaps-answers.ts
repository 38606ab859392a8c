import * as z from 'zod'
import { component, dateTimeField, nullableString, storedIntegerField, uuidField } from './common'

// The answers of a project's source-map bundles (docs/sourcemaps.md): what
// `GET /api/v1/projects/{id}/artifact_bundles` lists and the dashboard's settings page shows.

/** What a file of a bundle is (its manifest's `type`). */
export const ARTIFACT_FILE_TYPES = [
  'minified_source',
  'source_map',
  'source',
  'indexed_ram_bundle',
] as const

/** One uploaded bundle (or legacy release upload). */
export const artifactBundleSchema = component(
  'ArtifactBundle',
  z.strictObject({
    id: uuidField,
    bundle_debug_id: z.string().meta({
      description: "The manifest's `debug_id`, else one derived from the upload's checksum.",
    }),
    release: nullableString.meta({ description: 'null: found by debug IDs only.' }),
    dist: nullableString,
    file_count: storedIntegerField,
    size: storedIntegerField.meta({ description: "Bytes of the files' contents." }),
    debug_ids: z.array(z.string()).meta({ description: "The files' debug IDs, distinct, sorted." }),
    uploaded_at: dateTimeField,
    last_used_at: dateTimeField.meta({
      description:
        'Last time a frame was resolved with it (the upload time until then); retention expires bundles unused for the retention period.',
    }),
  }),
  'A source-map bundle as uploaded by sentry-cli, a bundler plugin or `tis sourcemaps upload`.',
)
/** A bundle as the API answers it. */
export type ArtifactBundleJson = z.output<typeof artifactBundleSchema>

/** One file of a bundle. */
export const artifactFileSchema = component(
  'ArtifactFile',
  z.strictObject({
    url: z.string().meta({ description: 'As uploaded: `~/assets/app.js`, or an absolute URL.' }),
    type: z.enum(ARTIFACT_FILE_TYPES),
    debug_id: nullableString,
    size: storedIntegerField,
    sha1: z.string().regex(/^[0-9a-f]{40}$/),
  }),
)
/** A bundle's file as the API answers it. */
export type ArtifactFileJson = z.output<typeof artifactFileSchema>

/** `GET …/artifact_bundles`. */
export const artifactBundleListSchema = z.strictObject({
  artifact_bundles: z.array(artifactBundleSchema),
})
/** `GET …/artifact_bundles/{bundle_id}`. */
export const artifactBundleDetailSchema = z.strictObject({
  artifact_bundle: artifactBundleSchema,
  files: z.array(artifactFileSchema),
})
