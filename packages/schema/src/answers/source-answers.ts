import * as z from 'zod'
import { component, dateTimeField, nullableString, storedIntegerField } from './common'

// The answers of the source excerpts (docs/source-excerpts.md): a project's source
// settings, and the event detail's `source_commit` and `frames`.

/** The default number of lines shown before and after a frame's line. */
export const DEFAULT_CONTEXT_LINES = 5
/** The most context lines a project may ask for. */
export const MAX_CONTEXT_LINES = 50
/** Longer lines (minified bundles) are cut to this many characters. */
export const MAX_LINE_CHARS = 1_000

/** Every `frames[].source.status` but `ok`. */
export const FRAME_SOURCE_FAILURES = [
  'not_found',
  'no_access',
  'rate_limited',
  'too_large',
  'unavailable',
  'not_in_repository',
  'no_commit',
  'timeout',
  'not_configured',
  'skipped',
] as const
/** Why a frame has no excerpt. */
export type FrameSourceFailureStatus = (typeof FRAME_SOURCE_FAILURES)[number]

/** The commit the excerpts of an event are cut from (`source_commit`). */
export const sourceCommitSchema = component(
  'SourceCommit',
  z
    .strictObject({
      repository: z.string().meta({ description: 'owner/name' }),
      commit_sha: z.string().regex(/^[0-9a-f]{7,40}$/),
      from: z.enum(['event', 'deployment']),
    })
    .nullable(),
  "The commit the excerpts are cut from: the event's `commit_sha` and `repository` (`from: event`), else the deployment shown in `deployment` (`from: deployment`); null when there is neither.",
)
/** The event detail's `source_commit`. */
export type SourceCommit = z.output<typeof sourceCommitSchema>

/** One line of an excerpt. */
export const excerptLineSchema = z.strictObject({
  number: z.int().min(1),
  text: z.string().max(MAX_LINE_CHARS),
})
/** One line of an excerpt, 1-based. */
export type ExcerptLine = z.output<typeof excerptLineSchema>

/** A frame's excerpt: the lines around its line at the commit. */
export const frameSourceExcerptSchema = component(
  'FrameSourceExcerpt',
  z.strictObject({
    status: z.literal('ok'),
    repository: z.string(),
    commit_sha: z.string(),
    path: z.string().meta({ description: 'The file in the repository.' }),
    line: z.int().min(1),
    lines: z.array(excerptLineSchema).meta({
      description: 'The line and up to `context_lines` lines before and after it.',
    }),
    url: z.string().meta({
      format: 'uri',
      description:
        'The line on GitHub at that commit: https://github.com/owner/repo/blob/<sha>/<path>#L<n>',
    }),
  }),
)
/** A frame's excerpt. */
export type FrameSourceExcerpt = z.output<typeof frameSourceExcerptSchema>

/** Why a frame has no excerpt. */
export const frameSourceFailureSchema = component(
  'FrameSourceFailure',
  z.strictObject({ status: z.enum(FRAME_SOURCE_FAILURES), message: z.string() }),
  'Why the frame has no excerpt (see docs/source-excerpts.md); never fails the response.',
)
/** A frame without an excerpt, and why. */
export type FrameSourceFailure = z.output<typeof frameSourceFailureSchema>

/** `frames[].source` of the event detail. */
export const frameSourceSchema = z.discriminatedUnion('status', [
  frameSourceExcerptSchema,
  frameSourceFailureSchema,
])
/** `frames[].source` of the event detail. */
export type FrameSource = z.output<typeof frameSourceSchema>

/** One stack frame of the event detail's `frames`. */
export const frameSchema = component(
  'Frame',
  z.strictObject({
    function: nullableString,
    filename: nullableString.meta({ description: 'As sent: a path or a URL.' }),
    lineno: storedIntegerField.nullable(),
    colno: storedIntegerField.nullable(),
    in_app: z.boolean().meta({ description: 'The file maps to a path in the repository.' }),
    source: frameSourceSchema,
  }),
  'One stack frame of `context.exception` (its `frames`, else its `backtrace` lines, else its `stack`), in the order sent.',
)
/** One frame of the event detail's `frames`. */
export type Frame = z.output<typeof frameSchema>

/** The event detail's `source_commit` and `frames` (the read API's event answer holds them). */
export const eventFramesSchema = z.strictObject({
  source_commit: sourceCommitSchema,
  frames: z.array(frameSchema),
})
/** The event detail's `frames` and the commit their excerpts were cut from. */
export type EventFrames = z.output<typeof eventFramesSchema>

/** A project's source excerpt settings (`sourceSettingsJson`). */
export const sourceSettingsSchema = component(
  'SourceSettings',
  z.strictObject({
    github_token_set: z.boolean().meta({ description: 'The project has a token of its own.' }),
    server_token_available: z.boolean().meta({ description: 'SERVICE_GITHUB_TOKEN is set.' }),
    path_prefix: nullableString,
    context_lines: z.int().min(0).max(MAX_CONTEXT_LINES),
    github_api_url: nullableString.meta({
      description: "null: the server's SERVICE_GITHUB_API_URL.",
    }),
    effective_github_api_url: z.string(),
    updated_at: dateTimeField.nullable(),
  }),
  "A project's source excerpt settings. The GitHub token is write-only.",
)
/** A project's source settings as the API answers them. */
export type SourceSettings = z.output<typeof sourceSettingsSchema>

/** `GET` and `PUT …/source_settings`. */
export const sourceSettingsAnswerSchema = z.strictObject({ source_settings: sourceSettingsSchema })
/** The body of `GET` and `PUT …/source_settings`. */
export type SourceSettingsAnswer = z.output<typeof sourceSettingsAnswerSchema>
