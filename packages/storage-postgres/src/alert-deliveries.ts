import type { AlertDeliveryStore, ClaimedAlertDelivery } from '@tis/ingest'
import { DELIVERY_COLUMNS, splitRecipients, toDeliveryRecord } from './alert-delivery-rows'
import { type Row, type SqlExecutor, textOrNull } from './executor'

// One statement: pick the due, unleased pending rows oldest due first, skipping rows another
// claimer holds (`for update skip locked`), lease them and count the attempt, then join what
// sending needs: the channel as it is now (a deleted channel leaves nulls) and the project's
// name. Under READ COMMITTED a row another claimer leased while this statement waited is
// re-checked against the lease condition (EvalPlanQual), so it is never claimed twice.
const CLAIM = /* sql */ `
with due as (
  select id from alert_deliveries
   where status = 'pending' and next_attempt_at <= $1::timestamptz
     and (lease_until is null or lease_until <= $1::timestamptz)
   order by next_attempt_at, id
   limit $2::int
   for update skip locked
), claimed as (
  update alert_deliveries d set lease_until = $3::timestamptz, attempts = d.attempts + 1
    from due where d.id = due.id
  returning d.*
)
select ${DELIVERY_COLUMNS}, p.name as project_name,
       c.url as channel_url, c.email_to as channel_email_to, c.secret as channel_secret
  from claimed d
  join projects p on p.id = d.project_id
  left join alert_channels c on c.id = d.channel_id
 order by d.next_attempt_at, d.id`

// Only a pending row is finished: an attempt whose lease ran out and whose row another
// process has since delivered or given up on cannot move it back.
const FINISH = /* sql */ `
update alert_deliveries set
  status = $2::text,
  last_error = $3::text,
  response_code = $4::int,
  delivered_at = case when $2::text = 'delivered' then $5::timestamptz else delivered_at end,
  next_attempt_at = coalesce($6::timestamptz, next_attempt_at),
  lease_until = null
where id = $1::uuid and status = 'pending'`

function toClaimed(row: Row): ClaimedAlertDelivery {
  return {
    ...toDeliveryRecord(row),
    projectName: row['project_name'] as string,
    url: textOrNull(row, 'channel_url'),
    to: splitRecipients(textOrNull(row, 'channel_email_to')),
    secret: textOrNull(row, 'channel_secret'),
  }
}

/** The delivery side of the alerts outbox: leased claims and recorded attempts. */
export function createAlertDeliveryQueries(
  db: SqlExecutor,
): Pick<AlertDeliveryStore, 'claimAlertDeliveries' | 'finishAlertDelivery'> {
  return {
    async claimAlertDeliveries(now, limit, leaseUntil) {
      if (limit <= 0) return []
      const rows = await db.query(CLAIM, [now, Math.floor(limit), leaseUntil])
      return rows.map(toClaimed)
    },
    async finishAlertDelivery(id, attempt) {
      await db.query(FINISH, [
        id,
        attempt.status,
        attempt.error,
        attempt.responseCode,
        attempt.at,
        attempt.nextAttemptAt,
      ])
    },
  }
}
