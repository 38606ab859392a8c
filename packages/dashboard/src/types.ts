// The JSON shapes of the engine's read and management answers the pages show (docs/read-api.md).
// The read answers' types are inferred from their schemas in `@tis/schema`.

import type { Span, TraceSpan } from '@tis/schema'

export type {
  Issue as IssueJson,
  LatencyBucket as LatencyBucketJson,
  Monitor as MonitorJson,
  StoredCheckIn as CheckInJson,
  StoredDeployment as DeploymentJson,
  StoredEvent as EventJson,
  Transaction as TransactionJson,
} from '@tis/schema'

/** A span of a trace list (`spanJson`), or of a trace detail with its `depth`. */
export type SpanJson = Span & Partial<Pick<TraceSpan, 'depth'>>

/** A project (`projectJson`). */
export interface ProjectJson {
  id: string
  name: string
  integration_kind: string
  status: string
  owner_id: string
  created_at: string
  archived_at: string | null
}

/** A member of a project (`GET …/members`). */
export interface MemberJson {
  user_id: string
  email: string
  role: 'owner' | 'member'
  added_at: string
}

/** A paged list answer. */
export type Page<K extends string, T> = { [key in K]: T[] } & { next_cursor: string | null }

/** Which commit the excerpts of an event come from (`source_commit`, docs/source-excerpts.md). */
export interface SourceCommitJson {
  repository: string
  commit_sha: string
  from: 'event' | 'deployment'
}

/** A frame's excerpt: the lines around its line at the commit, or why there is none. */
export type SourceJson =
  | {
      status: 'ok'
      repository: string
      commit_sha: string
      path: string
      line: number
      lines: { number: number; text: string }[]
      url: string
    }
  | { status: string; message?: string }

/** One stack frame of the event detail (`frames[]`). */
export interface FrameJson {
  function?: string | null
  filename?: string | null
  lineno?: number | null
  colno?: number | null
  in_app?: boolean
  source?: SourceJson
}

/** A project's source excerpt settings; the token itself is write-only. */
export interface SourceSettingsJson {
  github_token_set: boolean
  server_token_available: boolean
  path_prefix: string | null
  context_lines: number
  github_api_url: string | null
  effective_github_api_url: string
  updated_at: string | null
}

/** One of the user's sessions (`GET /api/v1/users/me/sessions`). */
export interface SessionJson {
  readonly id: string
  readonly created_at: string
  readonly last_seen_at: string
  readonly expires_at: string
  readonly user_agent: string | null
  readonly ip: string | null
}
