import * as z from 'zod'
import { EVENT_TYPES } from '../enums'
import {
  component,
  nullableString,
  pageOf,
  storedIntegerField,
  storedTimeField,
  uuidField,
} from './common'

// The events the read API lists (`GET …/events`) and shows in the event and trace details.

/**
 * The id of a record a client may name (an event, span or check-in: `event_id`, any UUID
 * version, section 2.1), so any 8-4-4-4-12 hexadecimal UUID.
 */
export const recordIdField = z.guid()

/** A JSON object as sent (an event's `context`, a check-in's `extra`). */
export const jsonObjectField = z.record(z.string(), z.unknown())

/** A stored event (`eventJson`). */
export const storedEventSchema = component(
  'StoredEvent',
  z.strictObject({
    id: recordIdField,
    legacy_id: storedIntegerField,
    event_type: z.enum(EVENT_TYPES),
    level: nullableString,
    message: nullableString,
    fingerprint: nullableString,
    occurred_at: storedTimeField,
    context: jsonObjectField.meta({
      description:
        'The event context as accepted. For an error, `exception.frames` (innermost first) holds the JavaScript frames resolved with uploaded source maps (docs/sourcemaps.md): original `function`, `filename`, `abs_path`, `lineno`, `colno` (1-based), `in_app`, `pre_context`/`context_line`/`post_context`, the frame as sent under `raw`, and `sourcemap` `{resolved, with: "debug_id"|"release", debug_id, map, problem}`; a JavaScript frame that could not be resolved keeps its fields as sent with `sourcemap.resolved: false` and the `problem`. An error stored before its maps were uploaded reads resolved once they are (it keeps its issue). `debug_meta.images` lists the debug IDs the SDK sent.',
    }),
    issue_id: uuidField.nullable(),
    environment: nullableString,
    release: nullableString,
    trace_id: nullableString,
    request_id: nullableString,
    session_id: nullableString,
  }),
)
/** An event as the read API answers it. */
export type StoredEvent = z.output<typeof storedEventSchema>

/** The answer of `GET …/events`: one page of events. */
export const eventPageSchema = pageOf('events', storedEventSchema)
/** The answer of `GET …/events`. */
export type EventPage = z.output<typeof eventPageSchema>
