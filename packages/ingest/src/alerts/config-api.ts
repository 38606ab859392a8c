import { randomBytes } from 'node:crypto'
import {
  ALERT_DELIVERY_STATUSES,
  type AlertChannelList,
  type AlertDeliveryAnswer,
  type AlertDeliveryPage,
  type AlertRuleAnswer,
  type AlertRuleList,
  type CreatedAlertChannel,
} from '@tis/schema'
import { z } from 'zod'
import { type EngineRequest, json } from '../http'
import { uuidv7 } from '../ids'
import type { ManagementOperation, ProjectAccess } from '../management/access'
import { readManagementBody } from '../management/body'
import type { AlertConfigStore, ProjectRecord } from '../ports'
import { keysetPage } from '../reads/cursor'
import { cursor, DEFAULT_PAGE_SIZE, limit, parse } from '../reads/query-fields'
import { alertChannelJson, alertDeliveryJson, alertRuleJson } from './json'
import { checkAlertTarget, type HostResolver } from './targets'
import { CHANNEL_FIELDS, parseChannel, parseRule, RULE_FIELDS } from './validate'

const NOT_FOUND = { error: 'Not found' } as const

/** The alerts configuration API: channels, rules, the delivery log, test messages. */
export interface AlertsApi {
  /** `GET /api/v1/projects/:id/alert_channels` */
  listAlertChannels: ManagementOperation
  /** `POST /api/v1/projects/:id/alert_channels` — a webhook's secret is in this answer only. */
  createAlertChannel: ManagementOperation
  /** `DELETE /api/v1/projects/:id/alert_channels/:channel_id` */
  deleteAlertChannel: ManagementOperation
  /** `POST /api/v1/projects/:id/alert_channels/:channel_id/test` — 202 with the queued delivery. */
  testAlertChannel: ManagementOperation
  /** `GET /api/v1/projects/:id/alert_rules` */
  listAlertRules: ManagementOperation
  /** `POST /api/v1/projects/:id/alert_rules` */
  createAlertRule: ManagementOperation
  /** `DELETE /api/v1/projects/:id/alert_rules/:rule_id` */
  deleteAlertRule: ManagementOperation
  /** `GET /api/v1/projects/:id/alert_deliveries` — newest first, keyset-paged, `status` filter. */
  listAlertDeliveries: ManagementOperation
}

/** Options of {@link createAlertsApi}. */
export interface AlertsApiOptions {
  /** Channels, rules and the delivery log. */
  readonly store: AlertConfigStore
  /** Who may see and change which project (the rule of API keys: anyone who sees the project). */
  readonly access: Pick<ProjectAccess, 'project'>
  /** @default () => new Date() */
  readonly now?: () => Date
  /** `SERVICE_ALERTS_ALLOW_PRIVATE_TARGETS`: allow URLs on loopback and private networks. */
  readonly allowPrivateTargets: boolean
  /** Whether the server can send mail (`SERVICE_SMTP_HOST`); without it, email channels are refused. */
  readonly emailConfigured: boolean
  /**
   * Resolves a URL's host name to its addresses, so a name pointing inside is refused. Without
   * it (and without `allowPrivateTargets`) URLs must name a public IP address.
   */
  readonly resolve?: HostResolver
}

/** The query of `GET …/alert_deliveries`. */
const DELIVERY_QUERY = z.object({
  status: z
    .enum(ALERT_DELIVERY_STATUSES, {
      error: `must be one of ${ALERT_DELIVERY_STATUSES.join(', ')}`,
    })
    .optional(),
  limit,
  cursor,
})

/** Reads the body, wrapped as `{"<key>": {…}}` or not (the rule of every management write). */
function body(request: EngineRequest, key: string, fields: readonly string[]) {
  return readManagementBody(request, { key, fields, bare: true })
}

/** Creates the alerts configuration operations over a store. */
export function createAlertsApi(options: AlertsApiOptions): AlertsApi {
  const { store, access } = options
  const now = options.now ?? (() => new Date())
  const policy = { allowPrivateTargets: options.allowPrivateTargets, resolve: options.resolve }
  const withProject = (
    fn: (request: EngineRequest, project: ProjectRecord) => ReturnType<ManagementOperation>,
  ) => access.project(false, fn)
  const param = (request: EngineRequest, name: string) => request.params?.[name] ?? ''

  return {
    listAlertChannels: withProject(async (_request, project) => {
      const channels = await store.listAlertChannels(project.id)
      return json(200, {
        alert_channels: channels.map(alertChannelJson),
      } satisfies AlertChannelList)
    }),

    createAlertChannel: withProject(async (request, project) => {
      const read = body(request, 'alert_channel', CHANNEL_FIELDS)
      if (!read.ok) return read.response
      const parsed = parseChannel(read.value ?? {}, options.emailConfigured)
      if (!parsed.ok) return json(422, { errors: parsed.errors })
      let { url } = parsed.value
      if (url !== null) {
        const target = await checkAlertTarget('url', url, policy)
        if (!target.ok) return json(422, { errors: [target.error] })
        url = target.url
      }
      // 32 random bytes, hex: the HMAC key of X-Tis-Signature, shown in this answer only.
      const secret = parsed.value.type === 'webhook' ? randomBytes(32).toString('hex') : null
      const channel = await store.createAlertChannel({
        ...parsed.value,
        url,
        id: uuidv7(),
        projectId: project.id,
        secret,
        createdAt: now(),
      })
      return json(201, {
        alert_channel: alertChannelJson(channel),
        secret,
      } satisfies CreatedAlertChannel)
    }),

    deleteAlertChannel: withProject(async (request, project) => {
      const deleted = await store.deleteAlertChannel(project.id, param(request, 'channel_id'))
      return deleted ? json(204, null) : json(404, NOT_FOUND)
    }),

    testAlertChannel: withProject(async (request, project) => {
      const delivery = await store.createTestAlertDelivery({
        id: uuidv7(),
        projectId: project.id,
        channelId: param(request, 'channel_id'),
        payload: {},
        createdAt: now(),
      })
      if (!delivery) return json(404, NOT_FOUND)
      return json(202, {
        alert_delivery: alertDeliveryJson(delivery),
      } satisfies AlertDeliveryAnswer)
    }),

    listAlertRules: withProject(async (_request, project) => {
      const rules = await store.listAlertRules(project.id)
      return json(200, { alert_rules: rules.map(alertRuleJson) } satisfies AlertRuleList)
    }),

    createAlertRule: withProject(async (request, project) => {
      const read = body(request, 'alert_rule', RULE_FIELDS)
      if (!read.ok) return read.response
      const parsed = parseRule(read.value ?? {})
      if (!parsed.ok) return json(422, { errors: parsed.errors })
      const own = new Set((await store.listAlertChannels(project.id)).map((c) => c.id))
      const foreign = parsed.value.channelIds.findIndex((id) => !own.has(id))
      if (foreign !== -1) {
        return json(422, { errors: [`channel_ids[${foreign}] is not a channel of this project`] })
      }
      const rule = await store.createAlertRule({
        ...parsed.value,
        id: uuidv7(),
        projectId: project.id,
        createdAt: now(),
      })
      return json(201, { alert_rule: alertRuleJson(rule) } satisfies AlertRuleAnswer)
    }),

    deleteAlertRule: withProject(async (request, project) => {
      const deleted = await store.deleteAlertRule(project.id, param(request, 'rule_id'))
      return deleted ? json(204, null) : json(404, NOT_FOUND)
    }),

    listAlertDeliveries: withProject(async (request, project) => {
      const raw = parse(DELIVERY_QUERY, request.query ?? {})
      const query = raw.ok
        ? {
            ok: true as const,
            value: { ...raw.value, limit: raw.value.limit ?? DEFAULT_PAGE_SIZE },
          }
        : raw
      const page = await keysetPage(
        query,
        (q) =>
          store.listAlertDeliveries({
            projectId: project.id,
            limit: q.limit,
            ...(q.status ? { status: q.status } : {}),
            ...(q.cursor ? { before: { createdAt: q.cursor.at, id: q.cursor.id } } : {}),
          }),
        (d) => ({ at: d.createdAt, id: d.id }),
      )
      if ('status' in page) return page
      return json(200, {
        alert_deliveries: page.rows.map(alertDeliveryJson),
        next_cursor: page.next,
      } satisfies AlertDeliveryPage)
    }),
  }
}
