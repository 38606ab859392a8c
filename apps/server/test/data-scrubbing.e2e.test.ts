import { type AlertReceiver, startAlertReceiver } from '@tis/test-utils/alert-receiver'
import { describeWithTestDatabase } from '@tis/test-utils/postgres-suite'
import {
  ADMIN_TOKEN,
  ALERTS_TEST_ENV,
  createClient,
  type Harness,
  startPostgresHarness,
} from '@tis/test-utils/server'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type DatabaseDump, dumpDatabase } from './support/database-dump'
import {
  alertNewIssues,
  correlation,
  makeSecrets,
  type ScrubbingProject,
  type Secrets,
  scrubbingProject,
  sendNative,
  sendOtelLog,
  sendSentryNode,
  sendSentryPython,
  sendToUnscrubbed,
} from './support/scrubbing-clients'
import { uuidOf } from './support/sentry-clients'
import { describeWithSentryPython } from './support/sentry-python-suite'

// Data scrubbing at the wire, with the real clients, on the run's PostgreSQL (docs/data-scrubbing.md):
// @sentry/node (an instrumented HTTP server: a request with a session cookie, a bearer
// credential and a `token` parameter, a context with a password and a card number, a breadcrumb
// with an API key), Debian's python3-sentry-sdk (a WSGI request whose failing frame holds a
// password and a card number in its locals), the native ingest API (a database password, a URL
// with a password, beside correlation ids) and OpenTelemetry's log exporter (an `authorization`
// attribute) send each secret once to one project, which alerts on new issues by webhook. No
// secret may come back from any read, reach the webhook, or be found anywhere in the database:
// a dump of all of it, with pg_dump when it can (this image's /usr/bin/pg_dump is PostgreSQL 15
// and refuses the run's embedded PostgreSQL 18), else every table of every schema copied out
// with `COPY … TO STDOUT` (ingest log partitions included; support/database-dump.ts). A second
// project with scrubbing off keeps its password as sent: the dump would see a leak. The
// settings themselves are tested at the engine (packages/ingest/test/data-scrubbing.int.test.ts).

const ENV = { ...ALERTS_TEST_ENV, SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '100000' }
const FILTERED = '[Filtered]'

/** Every secret of the run (those of the scrubbed project), with a card's digits also bare. */
function secretsOf(s: Secrets): string[] {
  const { off: _off, ...sent } = s
  const values = Object.values(sent).flatMap((group) => Object.values(group) as string[])
  return [...values, s.node.card.replaceAll(' ', ''), s.python.card.replaceAll(' ', '')].filter(
    (v) => v !== s.otel.requestId,
  )
}

/** The secrets found in `text`. */
const found = (secrets: readonly string[], text: string) => secrets.filter((v) => text.includes(v))

/** GETs every read answer of the project; resolves their texts and the event details by id. */
async function readEverything(p: ScrubbingProject, traceId: string) {
  const texts: string[] = []
  const read = async (path: string) => {
    const { body, text } = await p.read(path)
    texts.push(text)
    return body
  }
  const { issues } = await read('/issues')
  for (const issue of issues) await read(`/issues/${issue.id}`)
  const { events } = await read('/events')
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary response fields
  const details = new Map<string, any>()
  for (const event of events) details.set(event.id, await read(`/events/${event.id}`))
  await read(`/traces/${traceId}`)
  await read('/transactions')
  await read('/alert_deliveries')
  return { texts, issues, details }
}

describeWithSentryPython('data scrubbing with the real clients', () => {
  describeWithTestDatabase('data scrubbing with the real clients on PostgreSQL', (url) => {
    let harness: Harness
    let receiver: AlertReceiver
    let secrets: Secrets
    let ids: ReturnType<typeof correlation>
    let scrubbed: ScrubbingProject
    let unscrubbed: ScrubbingProject
    let sent: {
      node: Awaited<ReturnType<typeof sendSentryNode>>
      python: Awaited<ReturnType<typeof sendSentryPython>>
      nativeId: string
      offId: string
    }
    let reads: Awaited<ReturnType<typeof readEverything>>
    let dump: DatabaseDump

    beforeAll(async () => {
      ;[harness, receiver] = await Promise.all([
        startPostgresHarness(url, ENV),
        startAlertReceiver(),
      ])
      const c = createClient(harness.url)
      secrets = makeSecrets()
      ids = correlation()
      scrubbed = await scrubbingProject(c)
      unscrubbed = await scrubbingProject(c)
      await alertNewIssues(c, scrubbed.projectId, receiver)
      const [node, python, nativeId, offId] = await Promise.all([
        sendSentryNode(scrubbed, secrets),
        sendSentryPython(scrubbed, secrets),
        sendNative(harness, scrubbed, secrets, ids),
        sendToUnscrubbed(harness, unscrubbed, secrets),
        sendOtelLog(harness, scrubbed, secrets),
      ])
      sent = { node, python, nativeId, offId }
      // Three new issues (one per error sent): three webhooks, delivered.
      const until = Date.now() + 20_000
      while (receiver.requests.length < 3 && Date.now() < until) await sleep(100)
      await harness.server.engine.settled()
      reads = await readEverything(scrubbed, node.traceId!)
      dump = await dumpDatabase(url)
    }, 120_000)
    afterAll(async () => {
      await receiver?.close()
      await harness?.close()
    })

    it('lets the clients send the secrets (what each SDK filtered itself stays filtered)', () => {
      const node = JSON.stringify(sent.node.sent)
      const python = JSON.stringify(sent.python.sent)
      // @sentry/node filters cookies, Authorization and a `token` parameter itself, even with
      // sendDefaultPii; everything else it sends as set.
      const { session, bearer, token, ...nodeSent } = secrets.node
      expect(found([session, bearer, token], node)).toEqual([])
      expect(found(Object.values(nodeSent), node)).toEqual(Object.values(nodeSent))
      // Python's SDK 1.9 sends every secret: the cookie, the credential, the query string and
      // the frame locals.
      expect(found(Object.values(secrets.python), python)).toEqual(Object.values(secrets.python))
    })

    it('answers no secret from any read, and says where it filtered', () => {
      expect(reads.issues).toHaveLength(3)
      expect(found(secretsOf(secrets), reads.texts.join('\n'))).toEqual([])
      expect(reads.texts.join('\n')).not.toContain(secrets.off.password)
    })

    it('filters the @sentry/node event: context, breadcrumb, message and request', () => {
      const { event } = reads.details.get(uuidOf(sent.node.errorId))
      expect(event.message).toBe(`Error: card ${FILTERED} declined`)
      expect(event.context.contexts.checkout).toEqual({
        password: FILTERED,
        card: FILTERED,
        plan: 'gold',
      })
      expect(event.context.breadcrumbs).toEqual([
        expect.objectContaining({ data: { api_key: FILTERED, provider: 'acme-pay' } }),
      ])
      expect(event.context.request).toMatchObject({
        headers: { cookie: FILTERED, authorization: FILTERED },
        // The server filters the `cookies` object whole: its key names a cookie.
        cookies: FILTERED,
        query_string: `token=${FILTERED}&step=pay`,
      })
      expect(event.context.data_scrubbing.filtered).toBeGreaterThan(0)
    })

    it('filters the python event: frame locals, cookie, credential and query string', () => {
      const { event } = reads.details.get(uuidOf(sent.python.errorId))
      const frames = event.context.exception.frames as Array<{ function: string; vars: object }>
      const charge = frames.find((f) => f.function === 'charge_card')
      expect(charge?.vars).toMatchObject({ password: FILTERED, card: `'${FILTERED}'` })
      expect(event.context.request).toMatchObject({
        headers: { Cookie: FILTERED, Authorization: FILTERED, Host: '127.0.0.1' },
        query_string: `token=${FILTERED}&step=pay`,
      })
      expect(event.context.data_scrubbing.filtered).toBeGreaterThan(0)
    })

    it('filters the native event and keeps its correlation fields as sent', () => {
      const { event } = reads.details.get(sent.nativeId)
      expect(event).toMatchObject({
        ...ids,
        message: `could not connect to postgres://user:${FILTERED}@db:5432/x`,
      })
      expect(event.context).toMatchObject({
        ...ids,
        db_password: FILTERED,
        dsn: `postgres://user:${FILTERED}@db:5432/x`,
        plan: 'gold',
      })
      expect(event.context.data_scrubbing).toMatchObject({
        rules: { sensitive_key: 1, url_password: 2 },
      })
      expect(event.context.data_scrubbing.filtered).toBeGreaterThan(0)
    })

    it("filters the OTLP log record's authorization attribute", () => {
      const logs = [...reads.details.values()].filter((d) => d.event.event_type === 'log')
      expect(logs).toHaveLength(1)
      expect(logs[0].event.context.attributes).toMatchObject({
        authorization: FILTERED,
        request_id: secrets.otel.requestId,
        'http.route': '/checkout',
      })
      expect(logs[0].event.context.data_scrubbing.filtered).toBeGreaterThan(0)
    })

    it('sends no secret in the new-issue webhooks', () => {
      const bodies = receiver.requests.map((r) => r.body.toString('utf8'))
      expect(receiver.requests.map((r) => r.headers['x-tis-event'])).toEqual([
        'new_issue',
        'new_issue',
        'new_issue',
      ])
      expect(found(secretsOf(secrets), bodies.join('\n'))).toEqual([])
      // The titles they carry are the scrubbed ones.
      expect(bodies.join('\n')).toContain(`card ${FILTERED} declined`)
    })

    it('stores no secret anywhere in the database', () => {
      expect(found(secretsOf(secrets), dump.text), dump.via).toEqual([])
      // Copied table by table, the ingest log's partitions are among them.
      if (dump.via !== 'pg_dump') {
        expect(dump.tables).toContainEqual(expect.stringMatching(/\.ingest_log_default$/))
        expect(dump.tables).toContainEqual(expect.stringMatching(/\.ingest_log_\d{8}$/))
      }
      // The dump holds the events: what scrubbing replaced, and what it was told to keep.
      expect(dump.text, dump.via).toContain(FILTERED)
      expect(dump.text, dump.via).toContain(ids.session_id)
      expect(dump.text, dump.via).toContain(secrets.otel.requestId)
    })

    it('keeps a password as sent for a project with scrubbing off (the dump sees it)', async () => {
      const { body } = await unscrubbed.read(`/events/${sent.offId}`)
      expect(body.event.context).toEqual({ password: secrets.off.password })
      expect(dump.text, dump.via).toContain(secrets.off.password)
      const settings = await createClient(harness.url).api(
        'GET',
        `/api/v1/projects/${unscrubbed.projectId}/data_scrubbing`,
        { token: ADMIN_TOKEN },
      )
      expect(settings.body.data_scrubbing.enabled).toBe(false)
    })
  })
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
