import { randomUUID } from 'node:crypto'
import { BENCH_EVENT_BODY } from './bench-event'
import {
  nativeTwinEvent,
  SENTRY_SDK,
  sentryBenchErrorEvent,
  sentryBenchEvent,
} from './sentry-bench-event'
import { sentryRequestEvent } from './sentry-request-event'

// The bodies of the envelope comparison: the bench's native event, Sentry envelopes
// carrying the same error (as a Sentry SDK sends it, and as @sentry/node sends it with frames,
// contexts and sdk), and the native twin of the rich envelope's event,
// each with a fresh event id per request (idempotency dedupes by it). All are templates split at
// the id once, so making a body costs the load generator the same few string joins on every side.

const ID = '@@EVENT_ID@@'

/** A body maker: the template's parts around the id, joined with a new id per call. */
function maker(template: string, id: () => string): () => string {
  const parts = template.split(ID)
  return () => parts.join(id())
}

const hex = () => randomUUID().replaceAll('-', '')

/** `POST /api/v1/ingest_events` bodies: the bench event with a new `event_id` (a UUID) each. */
export function nativeBodies(): () => string {
  const { event } = JSON.parse(BENCH_EVENT_BODY) as { event: Record<string, unknown> }
  return maker(JSON.stringify({ event: { ...event, event_id: ID } }), randomUUID)
}

/**
 * `POST /api/v1/ingest_events` bodies with the content of the envelope's event as tis's Sentry
 * mapping stores it (frames, contexts, sdk), with a new `event_id` each.
 */
export function nativeTwinBodies(): () => string {
  return maker(JSON.stringify({ event: nativeTwinEvent(Date.now(), ID) }), randomUUID)
}

/**
 * Which Sentry event an envelope carries: the bench's error, @sentry/node's rich one, or the rich
 * one with a request's data, breadcrumbs and a context (sentry-request-event.ts).
 */
export type SentryBenchContent = 'error' | 'rich' | 'request'

const SENTRY_EVENTS = {
  error: sentryBenchErrorEvent,
  rich: sentryBenchEvent,
  request: sentryRequestEvent,
} as const

/**
 * `POST /api/<number>/envelope/` bodies: the envelope header (event_id, sent_at, sdk, trace), the
 * `event` item header and a Sentry event with a new event id (32 hex) each: `error`, the bench's
 * native error as a Sentry SDK sends it; `rich`, the event @sentry/node sends for it (exception
 * with frames, request, tags, contexts, sdk); `request`, that event with a request's cookies,
 * credential and form data, breadcrumbs and a context.
 */
export function envelopeBodies(dsn: string, content: SentryBenchContent = 'rich'): () => string {
  const now = Date.now()
  const event = SENTRY_EVENTS[content](now, ID)
  const header = {
    event_id: ID,
    sent_at: new Date(now).toISOString(),
    sdk: SENTRY_SDK,
    trace: {
      environment: 'production',
      release: 'api@1.42.0',
      public_key: keyOfDsn(dsn),
      trace_id: event.contexts.trace.trace_id,
    },
  }
  const template = [header, { type: 'event' }, event].map((j) => JSON.stringify(j)).join('\n')
  return maker(template, hex)
}

/** The public key of a DSN (`<scheme>://<key>@<host>/<number>`). */
export function keyOfDsn(dsn: string): string {
  return new URL(dsn).username
}

/** The headers @sentry/node sends with an envelope to the project of `dsn`. */
export function sentryHeaders(dsn: string): Record<string, string> {
  return {
    'content-type': 'application/x-sentry-envelope',
    'x-sentry-auth': `Sentry sentry_version=7, sentry_key=${keyOfDsn(dsn)}, sentry_client=${SENTRY_SDK.name}/${SENTRY_SDK.version}`,
  }
}

/** The envelope path of the project of `dsn`: `/api/<number>/envelope/`. */
export const envelopePath = (dsn: string) =>
  `/api/${new URL(dsn).pathname.split('/').pop()}/envelope/`
