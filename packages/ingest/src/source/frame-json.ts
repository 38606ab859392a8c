import type { SourceFailure } from '../ports'
import type { SourceCommit } from './commit'
import type { ExcerptLine } from './excerpt'

// The JSON of the event detail's `frames` and `source_commit` (docs/source-excerpts.md).

/** Why a frame has no excerpt. */
export type FrameSourceFailure =
  | SourceFailure
  | 'not_in_repository'
  | 'no_commit'
  | 'timeout'
  | 'not_configured'
  | 'skipped'

/** `frames[].source` of the event detail. */
export type FrameSource =
  | {
      readonly status: 'ok'
      readonly repository: string
      readonly commit_sha: string
      /** The file's path in the repository. */
      readonly path: string
      /** The frame's line. */
      readonly line: number
      readonly lines: readonly ExcerptLine[]
      /** The line on the code host's web pages at that commit. */
      readonly url: string
    }
  | { readonly status: FrameSourceFailure; readonly message: string }

/** One frame of the event detail's `frames`. */
export interface FrameJson {
  readonly function: string | null
  readonly filename: string | null
  readonly lineno: number | null
  readonly colno: number | null
  /** The file maps to a path in the repository. */
  readonly in_app: boolean
  readonly source: FrameSource
}

/** The event detail's `frames` and the commit their excerpts were cut from. */
export interface EventFrames {
  readonly source_commit: {
    readonly repository: string
    readonly commit_sha: string
    readonly from: SourceCommit['from']
  } | null
  readonly frames: readonly FrameJson[]
}
