import type { AlertConfigStore } from '@tis/ingest'
import { DELIVERY_COLUMNS, toDeliveryRecord } from './alert-delivery-rows'
import {
  ALERT_CHANNEL_COLUMNS,
  ALERT_RULE_COLUMNS,
  toAlertChannel,
  toAlertRule,
} from './alert-rows'
import type { SqlExecutor, SqlParam } from './executor'
import { isUuid } from './uuid'

/**
 * A project's alert channels and rules and its delivery log: the configuration the
 * management API writes. Every statement is scoped by project, so one project never reads or
 * deletes another's rows, whatever ids it sends.
 */
export function createAlertConfigQueries(db: SqlExecutor): AlertConfigStore {
  return {
    async createAlertChannel(input) {
      const rows = await db.query(
        `insert into alert_channels as c (id, project_id, name, type, url, email_to, secret,
           created_at)
         values ($1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::text, $7::text,
           $8::timestamptz)
         returning ${ALERT_CHANNEL_COLUMNS}`,
        [
          input.id,
          input.projectId,
          input.name,
          input.type,
          input.url,
          input.to === null ? null : input.to.join(','),
          input.secret,
          input.createdAt,
        ],
      )
      return toAlertChannel(rows[0]!)
    },

    async listAlertChannels(projectId) {
      if (!isUuid(projectId)) return []
      const rows = await db.query(
        `select ${ALERT_CHANNEL_COLUMNS} from alert_channels c
          where c.project_id = $1::uuid order by c.created_at, c.id`,
        [projectId],
      )
      return rows.map(toAlertChannel)
    },

    async deleteAlertChannel(projectId, channelId) {
      if (!isUuid(projectId) || !isUuid(channelId)) return false
      // Its place in rules goes with it (cascade); deliveries keep its name and type.
      const rows = await db.query(
        'delete from alert_channels where id = $2::uuid and project_id = $1::uuid returning id',
        [projectId, channelId],
      )
      return rows.length > 0
    },

    createAlertRule: (input) =>
      db.transaction(async (tx) => {
        await tx.query(
          `insert into alert_rules (id, project_id, name, trigger, environment, level, threshold,
             window_seconds, quiet_seconds, created_at)
           values ($1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::text, $7::float8,
             $8::integer, $9::integer, $10::timestamptz)`,
          [
            input.id,
            input.projectId,
            input.name,
            input.trigger,
            input.environment,
            input.level,
            input.threshold,
            input.windowSeconds,
            input.quietSeconds,
            input.createdAt,
          ],
        )
        // Only the project's own channels are linked, in the order given.
        await tx.query(
          `insert into alert_rule_channels (rule_id, channel_id, position)
           select $1::uuid, c.id, min(u.n)
             from unnest($3::text[]) with ordinality as u (id, n)
             join alert_channels c on c.id::text = lower(u.id) and c.project_id = $2::uuid
            group by c.id`,
          [input.id, input.projectId, input.channelIds],
        )
        const rows = await tx.query(
          `select ${ALERT_RULE_COLUMNS} from alert_rules r where r.id = $1::uuid`,
          [input.id],
        )
        return toAlertRule(rows[0]!)
      }),

    async listAlertRules(projectId) {
      if (!isUuid(projectId)) return []
      const rows = await db.query(
        `select ${ALERT_RULE_COLUMNS} from alert_rules r
          where r.project_id = $1::uuid order by r.created_at, r.id`,
        [projectId],
      )
      return rows.map(toAlertRule)
    },

    async deleteAlertRule(projectId, ruleId) {
      if (!isUuid(projectId) || !isUuid(ruleId)) return false
      // Its deliveries stay in the log with its name (rule_id set null).
      const rows = await db.query(
        'delete from alert_rules where id = $2::uuid and project_id = $1::uuid returning id',
        [projectId, ruleId],
      )
      return rows.length > 0
    },

    async listAlertDeliveries(query) {
      if (!isUuid(query.projectId)) return []
      const params: SqlParam[] = [query.projectId, query.limit]
      const where = ['d.project_id = $1::uuid']
      if (query.status) {
        params.push(query.status)
        where.push(`d.status = $${params.length}::text`)
      }
      if (query.before) {
        params.push(query.before.createdAt, query.before.id)
        where.push(
          `(d.created_at, d.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`,
        )
      }
      const rows = await db.query(
        `select ${DELIVERY_COLUMNS} from alert_deliveries d
          where ${where.join(' and ')}
          order by d.created_at desc, d.id desc limit $2::integer`,
        params,
      )
      return rows.map(toDeliveryRecord)
    },

    async createTestAlertDelivery(input) {
      if (!isUuid(input.projectId) || !isUuid(input.channelId)) return null
      const rows = await db.query(
        `insert into alert_deliveries as d (id, project_id, rule_id, rule_name, channel_id,
           channel_name, channel_type, trigger, subject_id, payload, status, attempts,
           next_attempt_at, created_at)
         select $1::uuid, c.project_id, null, null, c.id, c.name, c.type, 'test', null,
           $4::text::jsonb, 'pending', 0, $5::timestamptz, $5::timestamptz
           from alert_channels c where c.id = $3::uuid and c.project_id = $2::uuid
         returning ${DELIVERY_COLUMNS}`,
        [
          input.id,
          input.projectId,
          input.channelId,
          JSON.stringify(input.payload),
          input.createdAt,
        ],
      )
      return rows[0] ? toDeliveryRecord(rows[0]) : null
    },
  }
}
