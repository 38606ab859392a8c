import * as z from 'zod'
import { component } from './common'
import { storedDeploymentSchema } from './reads-deployments'
import { storedEventSchema } from './reads-events'
import { issueSchema } from './reads-issues'
import { MAX_DETAIL_FRAMES, RELATED_EVENTS_LIMIT } from './reads-limits'
import { frameSchema, sourceCommitSchema } from './source-answers'

// The answer of `GET …/events/:event_id`: the event with its issue, deployment, related events
// and source excerpts.

/** The answer of `GET …/events/:event_id` (`EventDetail`). */
export const eventDetailSchema = component(
  'EventDetail',
  z.strictObject({
    event: storedEventSchema,
    issue: issueSchema.nullable(),
    deployment: storedDeploymentSchema.nullable().meta({
      description:
        "The deployment of the event's release and environment (and repository when it names one), else the newest deployed at or before it there; null when none.",
    }),
    related: z
      .array(storedEventSchema)
      .max(RELATED_EVENTS_LIMIT)
      .meta({
        description: `Up to ${RELATED_EVENTS_LIMIT} other events sharing its trace_id, request_id or session_id, newest first.`,
      }),
    source_commit: sourceCommitSchema,
    frames: z.array(frameSchema).max(MAX_DETAIL_FRAMES).meta({
      description:
        'The stack frames of `context.exception` with source excerpts at the commit that ran, resolved when read (docs/source-excerpts.md); `[]` without frames.',
    }),
  }),
)
/** The answer of `GET …/events/:event_id`. */
export type EventDetail = z.output<typeof eventDetailSchema>
