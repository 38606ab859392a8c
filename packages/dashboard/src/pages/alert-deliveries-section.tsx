/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { AlertDelivery } from '@tis/schema'
import type { Html } from '../layout'
import { type SectionContext, SectionMessages, When } from './settings-section-parts'

/** How many deliveries the settings page shows (the API's default page). */
export const DELIVERY_LOG_SIZE = 50

/** The latest deliveries, newest first: status, attempts, last error and response code. */
export function AlertDeliveriesSection(props: {
  ctx: SectionContext
  deliveries: readonly AlertDelivery[]
}): Html {
  const { ctx, deliveries } = props
  return (
    <>
      <h2 id="alert-deliveries">Alert delivery log</h2>
      <SectionMessages ctx={ctx} section="alert-deliveries" />
      <p class="muted">
        The latest {DELIVERY_LOG_SIZE} notifications, newest first; the full log is at{' '}
        <code>GET …/alert_deliveries</code>.
      </p>
      {deliveries.length ? (
        <table>
          <caption class="skip">Alert deliveries</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Rule</th>
              <th scope="col">Channel</th>
              <th scope="col">Trigger</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last error</th>
              <th scope="col">Response</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr>
                <td>
                  <When iso={d.created_at} now={ctx.now} />
                </td>
                <td>{d.rule_name ?? (d.trigger === 'test' ? 'test' : '')}</td>
                <td>{d.channel_name}</td>
                <td>{d.trigger}</td>
                <td>{d.status}</td>
                <td>{d.attempts}</td>
                <td>{d.last_error ?? ''}</td>
                <td>{d.response_code ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">Nothing sent yet.</p>
      )}
    </>
  )
}
