import { ERROR_BODIES, type NormalizedEvent, parseDateTime } from '@tis/schema'
import { type EngineResponse, json } from '../http'
import { uuidFromParts, uuidv7 } from '../ids'
import { allowsEventType, bindEvent } from '../mobile'
import type { CredentialRecord, WriteOp } from '../ports'
import { issueGrouping } from './grouping'
import { deploymentFromEvent, monitorFromEvent } from './records'
import { scrubEvent } from './scrubbing'

/** The write of a valid event envelope for a credential, or its refusal (403, 422). */
export type EventOpBuilder = (
  event: NormalizedEvent,
  credential: CredentialRecord,
  at: Date,
) => WriteOp | EngineResponse

/**
 * The id of a new event or span: the client's `event_id`; for a span without one, an id
 * derived from (project, trace_id, span_id) when both are present; else a fresh UUID v7.
 * `dedupe` marks an id that may already be stored (a repeat is then not written again).
 */
export function recordId(
  event: NormalizedEvent,
  projectId: string,
  at: Date,
): { id: string; dedupe: boolean } {
  if (event.event_id) return { id: event.event_id, dedupe: true }
  if (event.event_type === 'span') {
    const traceId = event.trace_id ?? event.context.trace_id
    const spanId = event.span_id ?? event.context.span_id
    if (traceId !== undefined && typeof spanId === 'string') {
      return { id: uuidFromParts('span', projectId.toLowerCase(), traceId, spanId), dedupe: true }
    }
  }
  return { id: uuidv7(at.getTime()), dedupe: false }
}

/**
 * Builds the writes of accepted events: the mobile token's binding applied, the project's data
 * scrubbing (before anything is derived from the event), the record id, the
 * issue of an error, the monitor of a `check_in` event (its environment defaulting to
 * `serviceEnvironment`) and the deployment an event names.
 */
export function createEventOpBuilder(serviceEnvironment: string): EventOpBuilder {
  return (sent, credential, at) => {
    let event = sent
    if (credential.binding) {
      if (!allowsEventType(credential.binding, event.event_type)) {
        return json(403, ERROR_BODIES.forbidden)
      }
      const bound = bindEvent(credential.binding, event)
      if ('errors' in bound) return json(422, { errors: bound.errors })
      event = bound.event
    }
    event = scrubEvent(event, credential)
    const base = {
      ...recordId(event, credential.projectId, at),
      projectId: credential.projectId,
      receivedAt: at,
      event,
      occurredAt: parseDateTime(event.occurred_at),
    }
    if (event.event_type === 'span') return { ...base, type: 'span' }
    return {
      ...base,
      type: 'event',
      issue: event.event_type === 'error' ? issueGrouping(event) : null,
      monitor: event.event_type === 'check_in' ? monitorFromEvent(event, serviceEnvironment) : null,
      deployment: deploymentFromEvent(event),
    }
  }
}
