import * as z from 'zod'
import {
  component,
  dateTimeField,
  nullableNumber,
  nullableString,
  pageOf,
  storedIntegerField,
  storedTimeField,
  uuidField,
} from './common'
import { jsonObjectField, recordIdField } from './reads-events'

// The monitors' answers: `GET …/monitors`, `GET …/monitors/:monitor_id` and its check-ins.

/** A monitor with its status computed when read (`monitorJson`). */
export const monitorSchema = component(
  'Monitor',
  z.strictObject({
    id: uuidField,
    slug: z.string(),
    environment: z.string(),
    status: z.enum(['ok', 'error', 'missed']),
    health: z
      .enum(['ok', 'error'])
      .nullable()
      .meta({ description: 'The last ok/error check-in; null until the first of them.' }),
    last_status: z.string().meta({ description: 'The status of the newest check-in as sent.' }),
    last_check_in_at: storedTimeField,
    expected_interval_seconds: storedIntegerField,
    next_expected_at: storedTimeField,
    missed_after: storedTimeField,
    last_release: nullableString,
    check_in_count: storedIntegerField,
  }),
  'One (slug, environment) with its status computed when read: `error` while the last ok/error check-in was an error (also past the deadline), else `missed` after `missed_after` = `next_expected_at` + max(interval / 2, 30 s), else `ok`.',
)
/** A monitor as the read API answers it. */
export type Monitor = z.output<typeof monitorSchema>

/** The answer of `GET …/monitors`: one page of monitors. */
export const monitorPageSchema = pageOf('monitors', monitorSchema)
/** The answer of `GET …/monitors`. */
export type MonitorPage = z.output<typeof monitorPageSchema>

/** The answer of `GET …/monitors/:monitor_id`. */
export const monitorAnswerSchema = z.strictObject({ monitor: monitorSchema })
/** The answer of `GET …/monitors/:monitor_id`. */
export type MonitorAnswer = z.output<typeof monitorAnswerSchema>

/** One check-in of a monitor's history (`checkInJson`). */
export const storedCheckInSchema = component(
  'StoredCheckIn',
  z.strictObject({
    id: recordIdField.meta({
      description: "The accepted check-in's id; for an event, the id of its history entry.",
    }),
    occurred_at: dateTimeField,
    received_at: dateTimeField,
    status: z.string().meta({ description: 'As sent: `ok`, `error`, `in_progress`, …' }),
    duration_ms: nullableNumber,
    environment: z.string(),
    release: nullableString,
    trace_id: nullableString,
    request_id: nullableString,
    source: z.enum(['check_in', 'event', 'scheduler']).meta({
      description:
        '`check_in`: `POST /api/v1/check_ins`; `event`: an event of type `check_in`; `scheduler`: the deadline passed without a check-in (status `missed`, `extra` carries `last_check_in_at` and `missed_after`).',
    }),
    event_id: recordIdField
      .nullable()
      .meta({ description: 'The event it came from; null for `source` `check_in`.' }),
    message: nullableString.meta({ description: "The event's message; null for `check_in`." }),
    context: jsonObjectField.meta({
      description: 'The `context` object sent with it; `{}` if none.',
    }),
    extra: jsonObjectField.meta({
      description:
        'Other top-level fields sent that the check-in (section 2.3) or event (section 2.1) shape does not define, as sent.',
    }),
  }),
  'One check-in of a monitor, from `POST /api/v1/check_ins` (`source` `check_in`), an event of type `check_in` (`source` `event`) or a missed deadline (`source` `scheduler`), with the fields stored for it.',
)
/** A check-in as the read API answers it. */
export type StoredCheckIn = z.output<typeof storedCheckInSchema>

/** The answer of `GET …/monitors/:monitor_id/check_ins`: one page of check-ins. */
export const checkInPageSchema = pageOf('check_ins', storedCheckInSchema)
/** The answer of `GET …/monitors/:monitor_id/check_ins`. */
export type CheckInPage = z.output<typeof checkInPageSchema>
