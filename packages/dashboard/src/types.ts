// The JSON shapes of the engine's read and management answers the pages show (docs/read-api.md),
// inferred from their schemas in `@tis/schema`.

import type { SourceCommit, Span, TraceSpan } from '@tis/schema'

export type {
  Frame as FrameJson,
  FrameSource as SourceJson,
  Issue as IssueJson,
  LatencyBucket as LatencyBucketJson,
  Member as MemberJson,
  Monitor as MonitorJson,
  Project as ProjectJson,
  Session as SessionJson,
  SourceSettings as SourceSettingsJson,
  StoredCheckIn as CheckInJson,
  StoredDeployment as DeploymentJson,
  StoredEvent as EventJson,
  Transaction as TransactionJson,
} from '@tis/schema'

/** A span of a trace list (`spanJson`), or of a trace detail with its `depth`. */
export type SpanJson = Span & Partial<Pick<TraceSpan, 'depth'>>

/** Which commit the excerpts of an event come from (`source_commit`, docs/source-excerpts.md). */
export type SourceCommitJson = NonNullable<SourceCommit>

/** A paged list answer. */
export type Page<K extends string, T> = { [key in K]: T[] } & { next_cursor: string | null }
