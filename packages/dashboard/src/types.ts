// The JSON shapes of the engine's read and management answers the pages show (docs/read-api.md).

import type { SourceCommit } from '@tis/schema'

// The management, source-settings and account answers: their zod schemas in `@tis/schema`.
export type {
  Frame as FrameJson,
  FrameSource as SourceJson,
  Member as MemberJson,
  Project as ProjectJson,
  Session as SessionJson,
  SourceSettings as SourceSettingsJson,
} from '@tis/schema'
/** Which commit the excerpts of an event come from (`source_commit`, docs/source-excerpts.md). */
export type SourceCommitJson = NonNullable<SourceCommit>

/** An issue (`issueJson`). */
export interface IssueJson {
  id: string
  fingerprint: string | null
  title: string
  level: string
  status: 'unresolved' | 'resolved' | 'ignored'
  count: number
  first_seen_at: string
  last_seen_at: string
  first_release: string | null
  last_release: string | null
  latest_event_id: string | null
  regression_count: number
  regressed_in_release: string | null
  /** With `sparkline=24h`: events in each of the last 24 hours, oldest first. */
  sparkline?: number[]
}

/** An event (`eventJson`). */
export interface EventJson {
  id: string
  event_type: string
  level: string | null
  message: string | null
  occurred_at: string
  context: Record<string, unknown> | null
  issue_id: string | null
  environment: string | null
  release: string | null
  trace_id: string | null
  request_id: string | null
  session_id: string | null
}

/** A deployment (`deploymentJson`). */
export interface DeploymentJson {
  id: string
  repository: string | null
  environment: string
  release: string
  commit_sha: string | null
  branch: string | null
  release_tag: string | null
  deployed_at: string
  pull_request_number: number | null
  pull_request_url: string | null
  release_url: string | null
  compare_url: string | null
  workflow_run_url: string | null
  deployment_url: string | null
  source: string
}

/** A monitor (`monitorJson`). */
export interface MonitorJson {
  id: string
  slug: string
  environment: string
  status: 'ok' | 'error' | 'missed'
  last_status: string
  last_check_in_at: string
  expected_interval_seconds: number | null
  next_expected_at: string | null
  missed_after: string | null
  last_release: string | null
  check_in_count: number
}

/** One check-in of a monitor's history (`checkInJson`). */
export interface CheckInJson {
  id: string
  occurred_at: string
  received_at: string
  status: string
  duration_ms: number | null
  environment: string
  release: string | null
  trace_id: string | null
  request_id: string | null
  source: 'check_in' | 'event'
  event_id: string | null
  message: string | null
  context: Record<string, unknown>
  extra: Record<string, unknown>
}

/** A transaction summary row. */
export interface TransactionJson {
  name: string
  count: number
  error_count: number
  error_rate: number
  p50_ms: number | null
  p95_ms: number | null
  p99_ms: number | null
  avg_ms: number | null
}

/** One bucket of `GET …/transactions/latency`. */
export interface LatencyBucketJson {
  start: string
  count: number
  error_count: number
  p50_ms: number | null
  p95_ms: number | null
  p99_ms: number | null
  avg_ms: number | null
}

/** A span of a trace. */
export interface SpanJson {
  id: string
  trace_id: string
  span_id: string
  parent_span_id: string | null
  name: string
  kind: string
  started_at: string
  ended_at: string | null
  duration_ms: number | null
  environment: string | null
  release: string | null
  status: string | number | null
  level: string | null
  depth?: number
}

/** A paged list answer. */
export type Page<K extends string, T> = { [key in K]: T[] } & { next_cursor: string | null }
