import type {
  EventType,
  MobileToken,
  NormalizedCheckIn,
  NormalizedEvent,
  NormalizedMobileTokenRequest,
} from '@tis/schema'
import type { MobileBinding, MobileTokenRecord } from './ports'

/** The endpoints a mobile ingest token may call (section 5.5). */
export const MOBILE_ENDPOINTS = new Set(['ingest_events', 'check_ins'])

// Each bound field: its name in a request and in the binding.
const BOUND_FIELDS = [
  ['platform', 'platform'],
  ['service', 'service'],
  ['environment', 'environment'],
  ['release', 'release'],
  ['session_id', 'sessionId'],
] as const

/** Whether the token allows this event type (a check-in counts as `check_in`). */
export function allowsEventType(binding: MobileBinding, type: EventType): boolean {
  return binding.allowedEventTypes.includes(type)
}

/** The message naming a field that contradicts the binding and both values. */
function conflict(field: string, bound: string, sent: unknown): string {
  const shown = typeof sent === 'string' ? sent : JSON.stringify(sent)
  return `${field} does not match the token (token: ${bound}, sent: ${shown})`
}

/** Conflicts between the values a request sent (in any of `sources`) and the binding. */
function conflicts(
  binding: MobileBinding,
  sources: ReadonlyArray<Readonly<Record<string, unknown>>>,
): string[] {
  const errors: string[] = []
  for (const [field, name] of BOUND_FIELDS) {
    const bound = binding[name]
    if (bound === null) continue
    for (const source of sources) {
      const sent = source[field]
      if (sent !== undefined && sent !== null && sent !== bound) {
        errors.push(conflict(field, bound, sent))
        break
      }
    }
  }
  return errors
}

/** The bound values as context fields (optional ones only when bound). */
function boundContext(binding: MobileBinding): Record<string, string> {
  return {
    platform: binding.platform,
    service: binding.service,
    environment: binding.environment,
    ...(binding.release === null ? {} : { release: binding.release }),
    ...(binding.sessionId === null ? {} : { session_id: binding.sessionId }),
  }
}

/**
 * Applies a mobile token's binding to an event: the contradictions (422 messages), or the event
 * with the bound values written into its context and top-level fields.
 */
export function bindEvent(
  binding: MobileBinding,
  event: NormalizedEvent,
): { errors: string[] } | { event: NormalizedEvent } {
  const errors = conflicts(binding, [event as Record<string, unknown>, event.context])
  if (errors.length > 0) return { errors }
  const context = boundContext(binding)
  const topLevel: Record<string, string> = { environment: binding.environment }
  if (context['release'] !== undefined) topLevel['release'] = context['release']
  if (context['session_id'] !== undefined) topLevel['session_id'] = context['session_id']
  return {
    event: { ...event, ...topLevel, context: { ...event.context, ...context } } as NormalizedEvent,
  }
}

/**
 * Applies a mobile token's binding to a check-in parsed with the bound environment as its
 * default: the contradictions, or the check-in carrying the bound values.
 */
export function bindCheckIn(
  binding: MobileBinding,
  checkIn: NormalizedCheckIn,
): { errors: string[] } | { checkIn: NormalizedCheckIn } {
  const errors = conflicts(binding, [checkIn])
  if (errors.length > 0) return { errors }
  return {
    checkIn: {
      ...checkIn,
      ...boundContext(binding),
      release: binding.release ?? checkIn.release,
    },
  }
}

/** The binding a mint request asks for. */
export function bindingOf(request: NormalizedMobileTokenRequest): MobileBinding {
  return {
    platform: request.platform,
    service: request.service,
    environment: request.environment,
    release: request.release ?? null,
    sessionId: request.session_id ?? null,
    allowedEventTypes: request.allowed_event_types,
  }
}

/** The 201 body of a mint (section 2.6): the plaintext token appears only here. */
export function mintResponse(token: string, record: MobileTokenRecord) {
  return {
    token,
    expires_at: record.expiresAt.toISOString(),
    platform: record.platform,
    service: record.service,
    environment: record.environment,
    allowed_event_types: record.allowedEventTypes,
    ...(record.release === null ? {} : { release: record.release }),
    ...(record.sessionId === null ? {} : { session_id: record.sessionId }),
  }
}

/** A mobile token as the management API lists it (never the token itself). */
export function mobileTokenJson(t: MobileTokenRecord): MobileToken {
  return {
    id: t.id,
    parent_key_id: t.parentKeyId,
    platform: t.platform,
    service: t.service,
    environment: t.environment,
    release: t.release,
    session_id: t.sessionId,
    allowed_event_types: [...t.allowedEventTypes],
    created_at: t.createdAt.toISOString(),
    expires_at: t.expiresAt.toISOString(),
  }
}
