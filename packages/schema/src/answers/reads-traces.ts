import * as z from 'zod'
import { SPAN_KINDS } from '../enums'
import { component, nullableNumber, nullableString, pageOf, storedTimeField } from './common'
import { jsonObjectField, recordIdField, storedEventSchema } from './reads-events'
import { MAX_TRACE_SPANS, TRACE_EVENTS_LIMIT } from './reads-limits'

// The traces' answers: `GET …/traces` (root spans) and `GET …/traces/:trace_id`.

const nullableDateTime = z.iso.datetime({ offset: true }).nullable()

/** A stored span (`spanJson`). */
export const spanSchema = component(
  'Span',
  z.strictObject({
    id: recordIdField,
    trace_id: nullableString,
    span_id: nullableString,
    parent_span_id: nullableString.meta({ description: 'null for a root span' }),
    name: nullableString,
    kind: z.enum(SPAN_KINDS).nullable().meta({
      description:
        'One of the ten kinds: a sent kind outside them is stored as `internal` (the kind as sent stays in `context.kind`); null when none was sent.',
    }),
    started_at: storedTimeField,
    ended_at: nullableDateTime,
    duration_ms: nullableNumber.meta({
      description: 'As sent, else `ended_at - started_at`; null when neither is known.',
    }),
    environment: nullableString,
    release: nullableString,
    status: z.union([z.string(), z.int(), z.null()]).meta({
      description:
        'As sent (`ok`, `error`, an HTTP code, …): the top-level `status`, else `context.status`; null when neither is set.',
    }),
    level: nullableString.meta({
      description: 'As sent; clients send `error` for a failed span. null when not sent.',
    }),
    context: jsonObjectField,
  }),
)
/** A span as the read API answers it. */
export type Span = z.output<typeof spanSchema>

/** The answer of `GET …/traces`: one page of root spans (a component, unlike other pages). */
export const traceListSchema = component(
  'TraceList',
  pageOf('traces', spanSchema).extend({
    traces: z.array(spanSchema).meta({
      description: 'Root spans (no `parent_span_id`), newest `started_at` first.',
    }),
  }),
)
/** The answer of `GET …/traces`. */
export type TraceList = z.output<typeof traceListSchema>

/** A span of a trace, with its depth in the trace's tree. */
export const traceSpanSchema = spanSchema.extend({
  depth: z.int().min(0).meta({
    description: 'Levels below a root; 0 for roots and for spans whose parent is not in the trace.',
  }),
})
/** A span of a trace with its depth. */
export type TraceSpan = z.output<typeof traceSpanSchema>
/** A span as a trace list (`Span`) or a trace detail (`TraceSpan`, with its `depth`) answers it. */
export type ShownSpan = Span & Partial<Pick<TraceSpan, 'depth'>>

/** The answer of `GET …/traces/:trace_id`. */
export const traceDetailSchema = component(
  'TraceDetail',
  z.strictObject({
    trace_id: z.string(),
    root: spanSchema.nullable().meta({
      description:
        'The earliest span without a parent, else the earliest span whose parent is not in the trace; null when the trace has only events.',
    }),
    duration_ms: nullableNumber.meta({ description: "The root span's duration." }),
    started_at: nullableDateTime.meta({ description: 'The earliest span start.' }),
    ended_at: nullableDateTime.meta({
      description: 'The latest span end (`ended_at`, else start + duration).',
    }),
    span_count: z.int().meta({ description: 'The spans returned.' }),
    truncated: z.boolean().meta({
      description: `true when the trace has more than ${MAX_TRACE_SPANS} spans.`,
    }),
    spans: z
      .array(traceSpanSchema)
      .max(MAX_TRACE_SPANS)
      .meta({ description: 'Ordered by `started_at`, then id.' }),
    events: z
      .array(storedEventSchema)
      .max(TRACE_EVENTS_LIMIT)
      .meta({ description: 'Events other than spans with this trace_id, newest first.' }),
  }),
  `A trace: its spans (at most ${MAX_TRACE_SPANS}, earliest first; \`truncated\` when there are more) and its other events.`,
)
/** The answer of `GET …/traces/:trace_id`. */
export type TraceDetail = z.output<typeof traceDetailSchema>
