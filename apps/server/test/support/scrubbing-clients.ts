import { randomBytes, randomInt } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import type { AlertReceiver } from '@tis/test-utils/alert-receiver'
import { runScript } from '@tis/test-utils/run-script'
import { ADMIN_TOKEN, type Client, createClient, type Harness } from '@tis/test-utils/server'
import { expect } from 'vitest'
import { SYSTEM_PYTHON } from './sentry-python-suite'

// What the data-scrubbing end-to-end test sends, each secret once, by the real clients:
// @sentry/node from an instrumented HTTP server, Debian's python3-sentry-sdk from a WSGI
// application, the native ingest API, and OpenTelemetry's OTLP log exporter; and the project
// with scrubbing off beside it.

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url))

/** A secret no other run sends: a prefix naming it (so a failure says which) and 96 random bits. */
const secret = (name: string) => `${name}${randomBytes(12).toString('hex')}`

/**
 * A card number that passes the Luhn check, unique to this run: 16 digits starting with 4,
 * written as four groups of four (as a form sends it).
 */
export function luhnCard(): string {
  const digits = [4, ...Array.from({ length: 14 }, () => randomInt(10))]
  const sum = [...digits]
    .reverse()
    .reduce((s, d, i) => s + (i % 2 === 0 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0)
  digits.push((10 - (sum % 10)) % 10)
  return digits.join('').replace(/(\d{4})(?=\d)/g, '$1 ')
}

/** Every secret of the run, by what carries it. */
export function makeSecrets() {
  return {
    node: {
      session: secret('nodesession'),
      bearer: secret('nodebearer'),
      token: secret('nodetoken'),
      password: secret('nodepassword'),
      card: luhnCard(),
      apiKey: secret('nodeapikey'),
    },
    python: {
      session: secret('pysession'),
      bearer: secret('pybearer'),
      token: secret('pytoken'),
      password: secret('pypassword'),
      card: luhnCard(),
    },
    native: { dbPassword: secret('dbpassword'), urlPassword: secret('urlpassword') },
    otel: { authorization: secret('otelauthorization'), requestId: `req-${secret('otel')}` },
    /** Sent to the project with scrubbing off: it must be stored as sent. */
    off: { password: secret('offpassword') },
  }
}

/** The secrets of a run. */
export type Secrets = ReturnType<typeof makeSecrets>

/** The correlation fields of the native event: kept as sent, never scanned. */
export const correlation = () => ({
  request_id: `req_${randomBytes(8).toString('hex')}`,
  session_id: `sess_${randomBytes(12).toString('hex')}`,
  trace_id: randomBytes(16).toString('hex'),
})

/** A project on the harness with its DSN, key and a reader of its read API (as the administrator). */
export async function scrubbingProject(c: Client) {
  const { projectId, key } = await c.projectWithKey()
  const got = await c.api('GET', `/api/v1/projects/${projectId}`, { token: ADMIN_TOKEN })
  const dsn = got.body.project.dsn as string
  /** GETs `/api/v1/projects/:id<path>`, expects 200; resolves the body and its text. */
  const read = async (path: string) => {
    const r = await c.api('GET', `/api/v1/projects/${projectId}${path}`, { token: ADMIN_TOKEN })
    expect(r.status, `${path}: ${r.text}`).toBe(200)
    return { body: r.body, text: r.text }
  }
  return { projectId, key, dsn, read }
}

/** A project of {@link scrubbingProject}. */
export type ScrubbingProject = Awaited<ReturnType<typeof scrubbingProject>>

/** A `new_issue` rule of the project, delivered to `receiver` by webhook. */
export async function alertNewIssues(c: Client, projectId: string, receiver: AlertReceiver) {
  const base = `/api/v1/projects/${projectId}`
  const channel = await c.api('POST', `${base}/alert_channels`, {
    token: ADMIN_TOKEN,
    json: { name: 'receiver', type: 'webhook', url: receiver.url },
  })
  expect(channel.status, channel.text).toBe(201)
  const rule = {
    name: 'new issues',
    trigger: 'new_issue',
    channel_ids: [channel.body.alert_channel.id],
  }
  const created = await c.api('POST', `${base}/alert_rules`, { token: ADMIN_TOKEN, json: rule })
  expect(created.status, created.text).toBe(201)
}

/** Runs a fixture with `env`; expects exit 0 and resolves the JSON of its last line. */
async function runFixture<T>(command: string, args: string[], env: Record<string, string>) {
  const run = await runScript(command, args, { env, timeoutMs: 60_000 })
  expect(run.code, run.stderr).toBe(0)
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as T
}

/** What a Sentry fixture reports: the error's id (32 hex) and what the SDK handed its transport. */
interface SentryRun {
  readonly errorId: string
  readonly traceId?: string
  readonly sent: unknown
}

/** @sentry/node's instrumented HTTP server, one request with the node secrets. */
export const sendSentryNode = (p: ScrubbingProject, s: Secrets) =>
  runFixture<SentryRun>(process.execPath, [fixture('scrubbing-sentry-node-app.mjs')], {
    DSN: p.dsn,
    SECRETS: JSON.stringify(s.node),
  })

/** Python's WSGI application, one failing request with the python secrets. */
export async function sendSentryPython(p: ScrubbingProject, s: Secrets): Promise<SentryRun> {
  const run = await runFixture<{ sent: Array<{ event_id: string }> }>(
    SYSTEM_PYTHON,
    [fixture('scrubbing-sentry-python-app.py')],
    { DSN: p.dsn, SECRETS: JSON.stringify(s.python) },
  )
  expect(run.sent).toHaveLength(1)
  return { errorId: run.sent[0]!.event_id, sent: run.sent }
}

/** OpenTelemetry's OTLP/HTTP (protobuf) log exporter, one log record with the otel secret. */
export const sendOtelLog = (h: Harness, p: ScrubbingProject, s: Secrets) =>
  runFixture<object>(process.execPath, [fixture('scrubbing-otel-app.mjs')], {
    OTEL_EXPORTER_OTLP_ENDPOINT: h.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer%20${p.key}`,
    OTEL_SERVICE_NAME: 'shop',
    OTEL_TRACES_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'otlp',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOG_LEVEL: 'warn',
    SECRETS: JSON.stringify(s.otel),
  })

/** One native error event with the native secrets beside the correlation fields; its id. */
export async function sendNative(
  h: Harness,
  p: ScrubbingProject,
  s: Secrets,
  ids: ReturnType<typeof correlation>,
): Promise<string> {
  const url = `postgres://user:${s.native.urlPassword}@db:5432/x`
  const event = {
    event_type: 'error',
    message: `could not connect to ${url}`,
    ...ids,
    context: { ...ids, db_password: s.native.dbPassword, dsn: url, plan: 'gold' },
  }
  const res = await createClient(h.url).ingest('/api/v1/ingest_events', p.key, { event })
  expect(res.status, res.text).toBe(201)
  return res.body.id as string
}

/** One native log event with a password to the project with scrubbing off; its id. */
export async function sendToUnscrubbed(h: Harness, p: ScrubbingProject, s: Secrets) {
  const c = createClient(h.url)
  const off = await c.api('PUT', `/api/v1/projects/${p.projectId}/data_scrubbing`, {
    token: ADMIN_TOKEN,
    json: { data_scrubbing: { enabled: false } },
  })
  expect(off.status, off.text).toBe(200)
  const event = { event_type: 'log', message: 'login', context: { password: s.off.password } }
  const res = await c.ingest('/api/v1/ingest_events', p.key, { event })
  expect(res.status, res.text).toBe(201)
  return res.body.id as string
}
