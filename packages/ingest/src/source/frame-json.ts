import type {
  EventFrames as EventFramesAnswer,
  Frame,
  FrameSource as FrameSourceAnswer,
  FrameSourceFailureStatus,
} from '@tis/schema'

// The JSON of the event detail's `frames` and `source_commit` (docs/source-excerpts.md): the
// shapes are the zod schemas of `@tis/schema` (`frameSchema`, `sourceCommitSchema`).

/** Why a frame has no excerpt. */
export type FrameSourceFailure = FrameSourceFailureStatus

/** `frames[].source` of the event detail. */
export type FrameSource = FrameSourceAnswer

/** One frame of the event detail's `frames`. */
export type FrameJson = Frame

/** The event detail's `frames` and the commit their excerpts were cut from. */
export type EventFrames = EventFramesAnswer
