/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { Html } from './layout'

/** How to send the first event: the project's endpoint and a `curl` to paste. */
export function FirstEventHelp(props: { base: string; origin: string; projectId: string }): Html {
  const { base, origin, projectId } = props
  const endpoint = `${origin}/api/v1/ingest_events`
  const curl = `curl -i -X POST ${endpoint} \\
  -H 'Authorization: Bearer <your API key>' -H 'Content-Type: application/json' \\
  -d '{"event":{"event_type":"error","message":"Hello from tis"}}'`
  return (
    <section class="empty" aria-labelledby="first-event">
      <h2 id="first-event">Send your first event</h2>
      <p>
        Nothing has arrived for this project yet. Events go to <code>{endpoint}</code> with one of
        the project's API keys (
        <a href={`${base}/projects/${projectId}/settings`}>create one in Settings</a>; it is shown
        once).
      </p>
      <pre id="curl-example">{curl}</pre>
      <button type="button" data-copy="curl-example">
        Copy the command
      </button>
      <p>
        Or use an SDK: <code>{`createClient({ baseUrl: '${origin}', apiKey })`}</code> from{' '}
        <code>@tis/sdk</code>.
      </p>
    </section>
  )
}
