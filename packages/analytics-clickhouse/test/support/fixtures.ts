import { randomUUID } from 'node:crypto'
import type { OutboxEventRow, OutboxSessionMinuteRow, OutboxSpanRow } from '@tis/ingest'

/** An accepted event row; `overrides` win. */
export function eventRowFixture(overrides: Partial<OutboxEventRow> = {}): OutboxEventRow {
  return {
    id: randomUUID(),
    project_id: 'project-1',
    event_type: 'error',
    level: 'error',
    message: 'boom',
    fingerprint: null,
    occurred_at: '2026-11-22T10:15:30.123Z',
    received_at: '2026-11-22T10:15:31.456Z',
    environment: 'production',
    release: '1.0.0',
    trace_id: null,
    request_id: null,
    session_id: null,
    user_id: null,
    transaction_name: null,
    duration_ms: null,
    issue_id: null,
    payload: { event_type: 'error', message: 'boom', context: {} },
    ...overrides,
  }
}

/** An accepted span row: a root server span unless `overrides` say otherwise. */
export function spanRowFixture(overrides: Partial<OutboxSpanRow> = {}): OutboxSpanRow {
  return {
    id: randomUUID(),
    project_id: 'project-1',
    trace_id: 'trace-1',
    span_id: randomUUID().slice(0, 16),
    parent_span_id: null,
    name: 'GET /users/:id',
    kind: 'server',
    started_at: '2026-11-22T10:15:00.250Z',
    ended_at: null,
    duration_ms: 10,
    environment: 'production',
    release: '1.0.0',
    received_at: '2026-11-22T10:15:02.000Z',
    payload: { event_type: 'span', context: {} },
    ...overrides,
  }
}

/** One minute of release health as the read model holds it; `overrides` win. */
export function sessionMinuteFixture(
  overrides: Partial<OutboxSessionMinuteRow> = {},
): OutboxSessionMinuteRow {
  return {
    project_id: 'project-1',
    release: 'shop@1.0.0',
    environment: 'production',
    minute: '2026-11-22T10:15:00+00:00',
    healthy: 3,
    errored: 1,
    abnormal: 0,
    crashed: 1,
    version: '10',
    ...overrides,
  }
}
