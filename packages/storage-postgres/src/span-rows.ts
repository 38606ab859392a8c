import type { SpanRecord } from '@tis/ingest'
import { dateOrNull, numberOrNull, type Row, textOrNull } from './executor'

/** The `spans s` columns of a {@link SpanRecord}. */
export const SPAN_COLUMNS = `s.id::text as id, s.trace_id, s.span_id, s.parent_span_id, s.name, s.kind,
  s.started_at, s.ended_at, s.duration_ms, s.environment, s.release, s.payload`

const statusValue = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? v : null)

/** A span's status as sent: the top-level `status`, else `context.status`. */
function spanStatus(payload: Record<string, unknown>): string | number | null {
  const context = payload['context']
  const inContext =
    typeof context === 'object' && context !== null
      ? (context as Record<string, unknown>)['status']
      : undefined
  return statusValue(payload['status']) ?? statusValue(inContext)
}

/** A row of {@link SPAN_COLUMNS} as a span. */
export function toSpan(row: Row): SpanRecord {
  const payload = row['payload'] as Record<string, unknown>
  return {
    id: row['id'] as string,
    traceId: textOrNull(row, 'trace_id'),
    spanId: textOrNull(row, 'span_id'),
    parentSpanId: textOrNull(row, 'parent_span_id'),
    name: row['name'] as string,
    kind: textOrNull(row, 'kind'),
    startedAt: row['started_at'] as Date,
    endedAt: dateOrNull(row, 'ended_at'),
    durationMs: numberOrNull(row, 'duration_ms'),
    environment: textOrNull(row, 'environment'),
    release: textOrNull(row, 'release'),
    status: spanStatus(payload),
    level: typeof payload['level'] === 'string' ? payload['level'] : null,
    payload,
  }
}
