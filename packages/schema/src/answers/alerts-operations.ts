import * as z from 'zod'
import type { OpenApiExtension } from '../openapi'
import {
  ALERT_CHANNEL_TYPES,
  ALERT_DELIVERY_STATUSES,
  ALERT_LEVELS,
  ALERT_TRIGGERS,
  alertChannelListSchema,
  alertChannelSchema,
  alertDeliveryAnswerSchema,
  alertDeliveryPageSchema,
  alertDeliverySchema,
  alertRuleAnswerSchema,
  alertRuleListSchema,
  alertRuleSchema,
  createdAlertChannelSchema,
} from './alerts-answers'
import { alertWebhookBodySchema } from './alerts-webhook'
import { component } from './common'
import { errorResponse } from './error-responses'
import { type ApiOperation, operationPaths } from './operations'

// The alerts configuration API: the OpenAPI paths are generated from this table. The
// request schemas document the bodies; `@tis/ingest` (`createAlertsApi`) validates them with its
// own messages, one per field.

/** The limits of the alerts API's fields (docs/alerts.md). */
export const ALERT_LIMITS = {
  name: 200,
  url: 2_048,
  recipients: 20,
  environment: 200,
  threshold: 1_000_000,
  windowSeconds: { min: 60, max: 86_400 },
  quietSeconds: 604_800,
  channelsPerRule: 20,
} as const

const describe = <T extends z.ZodType>(schema: T, description: string) =>
  schema.meta({ description })

/** `POST …/alert_channels` body. */
export const alertChannelRequestSchema = component(
  'AlertChannelRequest',
  z
    .strictObject({
      name: describe(
        z.string().min(1).max(ALERT_LIMITS.name),
        'Shown in the dashboard and the log.',
      ),
      type: z.enum(ALERT_CHANNEL_TYPES),
      url: describe(
        z.string().max(ALERT_LIMITS.url).optional(),
        'webhook and slack: an http(s) URL without credentials; loopback, link-local and private addresses (and names resolving to them) are refused unless SERVICE_ALERTS_ALLOW_PRIVATE_TARGETS=true.',
      ),
      to: describe(
        z.union([z.string(), z.array(z.string()).min(1).max(ALERT_LIMITS.recipients)]).optional(),
        `email: one or more addresses, as an array or a comma-separated string (at most ${ALERT_LIMITS.recipients}); needs SERVICE_SMTP_HOST.`,
      ),
    })
    .meta({
      // A documentation address (RFC 5737): public, so it passes the private-target check.
      example: { name: 'ops hook', type: 'webhook', url: 'https://203.0.113.10/hooks/tis' },
    }),
  'A channel to create; sent as is or wrapped as `{"alert_channel": {…}}`.',
)

/** `POST …/alert_rules` body. */
export const alertRuleRequestSchema = component(
  'AlertRuleRequest',
  z
    .strictObject({
      name: z.string().min(1).max(ALERT_LIMITS.name),
      trigger: z.enum(ALERT_TRIGGERS),
      channel_ids: describe(
        z.array(z.uuid()).min(1).max(ALERT_LIMITS.channelsPerRule),
        "One or more of the project's channel ids, notified in this order.",
      ),
      environment: describe(
        z.string().min(1).max(ALERT_LIMITS.environment).nullable().optional(),
        'Only causes in this environment.',
      ),
      level: describe(
        z.enum(ALERT_LEVELS).nullable().optional(),
        'Issue triggers only: only events of this level.',
      ),
      threshold: describe(
        z.int().min(1).max(ALERT_LIMITS.threshold).nullable().optional(),
        'spike (required): fires when an issue has more than this many events…',
      ),
      window_seconds: describe(
        z
          .int()
          .min(ALERT_LIMITS.windowSeconds.min)
          .max(ALERT_LIMITS.windowSeconds.max)
          .nullable()
          .optional(),
        'spike (required): …within this many seconds.',
      ),
      quiet_seconds: describe(
        z.int().min(0).max(ALERT_LIMITS.quietSeconds).nullable().optional(),
        'After firing for one issue or monitor, stay silent for it this long. Default 3600 for spike, 0 otherwise.',
      ),
    })
    .meta({
      // `$CHANNEL_ID`: the curl example on the HTTP API page reads the id from the shell.
      example: { name: 'new errors', trigger: 'new_issue', channel_ids: ['$CHANNEL_ID'] },
    }),
  'A rule to create; sent as is or wrapped as `{"alert_rule": {…}}`.',
)

/** The query of `GET …/alert_deliveries`, for the document (the engine parses its own). */
export const alertDeliveryQueryDoc = z.object({
  status: describe(z.enum(ALERT_DELIVERY_STATUSES).optional(), 'Only deliveries in this status.'),
  limit: describe(z.int().min(1).default(50), 'Page size, 1 or more; capped at 200.'),
  cursor: describe(z.string().optional(), 'The `next_cursor` of the previous page (opaque).'),
})

const DESCRIPTIONS: Record<number, string> = {
  400: 'The body is missing, not valid JSON, not a JSON object or empty; the message begins `param is missing or the value is empty`.',
  401: 'The access token is missing or unknown.',
  404: 'No such project, channel or rule, or the user may not see the project.',
  422: 'A field is invalid; every problem is listed, each naming its field.',
}
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, errorResponse(s, DESCRIPTIONS[s] ?? '')]))
const either = (key: string, schema: z.ZodType) =>
  z.xor([schema, z.strictObject({ [key]: schema })])
const CHANNEL = { channel_id: z.uuid() }

/**
 * The alerts API's operations: channels, rules, the delivery log and test messages. The deletes
 * come last: the HTTP API page runs its curl examples in this order, on one channel and rule.
 */
export const ALERTS_OPERATIONS: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/projects/{id}/alert_channels',
    id: 'listAlertChannels',
    summary: "List a project's alert channels (never their secrets)",
    responses: {
      200: { description: 'The channels, oldest first.', body: alertChannelListSchema },
      ...errors(401, 404),
    },
  },
  {
    method: 'post',
    path: '/api/v1/projects/{id}/alert_channels',
    id: 'createAlertChannel',
    summary: 'Create an alert channel (webhook, Slack or email)',
    body: either('alert_channel', alertChannelRequestSchema),
    responses: {
      201: {
        description: "The channel, and a webhook's secret, shown once.",
        body: createdAlertChannelSchema,
      },
      ...errors(400, 401, 404, 422),
    },
  },
  {
    method: 'post',
    path: '/api/v1/projects/{id}/alert_channels/{channel_id}/test',
    id: 'testAlertChannel',
    summary: 'Send a test message to a channel',
    description:
      'Queues a delivery with trigger `test`; background work sends it like any other. Follow it in the delivery log.',
    params: CHANNEL,
    responses: {
      202: { description: 'The queued test delivery.', body: alertDeliveryAnswerSchema },
      ...errors(401, 404),
    },
  },
  {
    method: 'get',
    path: '/api/v1/projects/{id}/alert_rules',
    id: 'listAlertRules',
    summary: "List a project's alert rules",
    responses: {
      200: { description: 'The rules, oldest first.', body: alertRuleListSchema },
      ...errors(401, 404),
    },
  },
  {
    method: 'post',
    path: '/api/v1/projects/{id}/alert_rules',
    id: 'createAlertRule',
    summary: 'Create an alert rule',
    body: either('alert_rule', alertRuleRequestSchema),
    responses: {
      201: { description: 'The rule.', body: alertRuleAnswerSchema },
      ...errors(400, 401, 404, 422),
    },
  },
  {
    method: 'get',
    path: '/api/v1/projects/{id}/alert_deliveries',
    id: 'listAlertDeliveries',
    summary: "A project's delivery log, newest first",
    query: alertDeliveryQueryDoc,
    responses: {
      200: { description: 'One page of deliveries.', body: alertDeliveryPageSchema },
      ...errors(401, 404, 422),
    },
  },
  {
    method: 'delete',
    path: '/api/v1/projects/{id}/alert_rules/{rule_id}',
    id: 'deleteAlertRule',
    summary: 'Delete an alert rule; its deliveries stay in the log with its name',
    params: { rule_id: z.uuid() },
    responses: { 204: { description: 'Deleted.' }, ...errors(401, 404) },
  },
  {
    method: 'delete',
    path: '/api/v1/projects/{id}/alert_channels/{channel_id}',
    id: 'deleteAlertChannel',
    summary: 'Delete an alert channel; rules stop notifying it, its deliveries stay in the log',
    params: CHANNEL,
    responses: { 204: { description: 'Deleted.' }, ...errors(401, 404) },
  },
].map((row) => ({ ...row, tag: 'alerts' }) as ApiOperation)

/** The alerts API and the webhook body as an OpenAPI extension. */
export const ALERTS_OPENAPI: OpenApiExtension = {
  tags: [{ name: 'alerts', description: 'Alert channels, rules and the delivery log' }],
  schemas: {
    AlertChannel: alertChannelSchema,
    AlertRule: alertRuleSchema,
    AlertDelivery: alertDeliverySchema,
    AlertChannelRequest: alertChannelRequestSchema,
    AlertRuleRequest: alertRuleRequestSchema,
    AlertWebhookBody: alertWebhookBodySchema,
  },
  paths: operationPaths(ALERTS_OPERATIONS),
}
