import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { ADMIN_TOKEN, createClient, freshIp, type Harness } from '@tis/test-utils/server'
import { beforeAll, expect, it } from 'vitest'
import { EXPECTED } from '../fixtures/logister-python/expected'

type Json = Record<string, unknown>

/** One request of `requests.ndjson`, as Logister's Python client 0.4.0 sent it. */
interface Recorded {
  readonly step: string
  readonly path: string
  readonly headers: Record<string, string>
  readonly body: Json
}

const RECORDED: readonly Recorded[] = readFileSync(
  new URL('../fixtures/logister-python/requests.ndjson', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Recorded)

/** Lines sent with a key that was revoked, or never existed (the client's own 401 steps). */
const refusedKey = (step: string) => step.includes('401') || step.includes('wrong key')
/** The "real 429" steps run on a project whose cap is 3 requests a minute, as recorded. */
const rateLimited = (step: string) => step.startsWith('STEP real 429')

/**
 * Context keys of sections 2.1 and 2.2 (and their convenience copies): tis may normalise these.
 * Every other key a client puts in `context` is the user's and must read back exactly as sent.
 */
const DOCUMENTED_CONTEXT_KEYS = new Set([
  'environment',
  'release',
  'branch',
  'service',
  'commit_sha',
  'repository',
  'trace_id',
  'request_id',
  'session_id',
  'user_id',
  'transaction_name',
  'duration_ms',
  'value',
  'unit',
  'tags',
  'exception',
  'request',
  'check_in_slug',
  'check_in_status',
  'expected_interval_seconds',
  'metadata',
  'span_id',
  'parent_span_id',
  'kind',
  'span_kind',
  'started_at',
  'ended_at',
  'status',
])

/**
 * Replays the 128 requests that Logister's Python client 0.4.0 sent (every capability, its
 * logging handler, Flask/FastAPI/Django middleware and Celery hooks; `../fixtures/logister-python`)
 * against a real server and checks each answer against the outcome the specification and issue
 * 17 call for (`expected.ts`), then reads back what was stored.
 */
export function describeLogisterPythonReplay(harness: () => Harness) {
  const answers: { status: number; body: Json | null }[] = []
  let projectId = ''
  let rateProjectId = ''

  beforeAll(async () => {
    const c = createClient(harness().url)
    const project = await c.createProject(ADMIN_TOKEN, 'python')
    projectId = project.id
    const revoked = await c.createKey(projectId)
    await c.api('DELETE', `/api/v1/projects/${projectId}/api_keys/${revoked.id}`, {
      token: ADMIN_TOKEN,
    })
    const rateProject = await c.createProject(ADMIN_TOKEN, 'python')
    rateProjectId = rateProject.id
    const limited = await c.api('PUT', `/api/v1/projects/${rateProjectId}/rate_limits`, {
      token: ADMIN_TOKEN,
      json: { rate_limit: { requests: 3, period_seconds: 60 } },
    })
    expect(limited.status).toBe(200)
    const rateKey = (await c.createKey(rateProjectId)).token

    let wrong = 0
    for (const recorded of RECORDED) {
      let key: string
      if (refusedKey(recorded.step)) {
        // Half the refused requests use the revoked key, half one that never existed.
        wrong += 1
        key = wrong % 2 === 0 ? revoked.token : `tis_${randomBytes(16).toString('hex')}`
      } else if (rateLimited(recorded.step)) {
        key = rateKey
      } else {
        // A fresh key per request keeps the suite's small per-key cap out of the way.
        key = (await c.createKey(projectId)).token
      }
      answers.push(await replay(harness().url, recorded, key))
    }
  }, 120_000)

  it('answers every recorded request as the specification and issue 17 call for', () => {
    expect(EXPECTED.map(([line]) => line)).toEqual(RECORDED.map((_, i) => i))
    const wrong = EXPECTED.flatMap(([line, step, status, why]) => {
      expect(RECORDED[line]!.step).toBe(step)
      const got = answers[line]!
      return got.status === status
        ? []
        : [
            `line ${line} (${step}): expected ${status} (${why}), got ${got.status} ${JSON.stringify(got.body)?.slice(0, 300)}`,
          ]
    })
    expect(wrong).toEqual([])
  })

  const read = async (path: string) => {
    const c = createClient(harness().url)
    return c.api('GET', `/api/v1/projects/${projectId}${path}`, { token: ADMIN_TOKEN })
  }

  it('reads back every accepted event with its message, type and the user context as sent', async () => {
    const problems: string[] = []
    for (const [line, recorded] of RECORDED.entries()) {
      const event = recorded.body['event'] as Json | undefined
      const answer = answers[line]!
      if (!event || event['event_type'] === 'span' || answer.status >= 300) continue
      if (rateLimited(recorded.step)) continue
      const r = await read(`/events/${answer.body?.['id']}`)
      if (r.status !== 200) {
        problems.push(`line ${line}: GET event answered ${r.status}`)
        continue
      }
      const stored = r.body.event as Json
      if (stored['event_type'] !== event['event_type']) problems.push(`line ${line}: event_type`)
      if (stored['message'] !== event['message']) problems.push(`line ${line}: message`)
      const sent = (event['context'] ?? {}) as Json
      const kept = (stored['context'] ?? {}) as Json
      for (const [name, value] of Object.entries(sent)) {
        if (DOCUMENTED_CONTEXT_KEYS.has(name) || value === null) continue
        try {
          expect(kept[name]).toEqual(value)
        } catch {
          problems.push(`line ${line}: context.${name} is ${JSON.stringify(kept[name])}`)
        }
      }
    }
    expect(problems).toEqual([])
  })

  it('moves a monitor for the check-ins sent as events with their fields in context', async () => {
    const r = await read('/monitors?limit=100')
    const bySlug = (slug: string) => r.body.monitors.find((m: Json) => m['slug'] === slug)
    const common = { environment: 'staging', expected_interval_seconds: 600, check_in_count: 1 }
    expect(bySlug('event-shape-job')).toMatchObject({
      ...common,
      health: 'ok',
      last_status: 'ok',
      last_release: '2.8.0-py',
      last_check_in_at: '2026-11-24T23:19:42.088Z',
    })
    expect(bySlug('event-shape-job-2')).toMatchObject({
      ...common,
      health: 'error',
      last_status: 'error',
    })
  })

  it('stores a span of an OpenTelemetry kind as internal, keeping the sent kind in context', async () => {
    const span = RECORDED[25]!.body['event'] as Json
    const r = await read(`/traces/${span['trace_id']}`)
    expect(r.status).toBe(200)
    const stored = r.body.spans.find((s: Json) => s['id'] === span['uuid'])
    expect(stored).toMatchObject({ kind: 'internal', name: 'otel client span' })
    expect(stored.context.kind).toBe('client')
  })

  it('truncates a transaction name over 1,024 characters instead of refusing the event', async () => {
    const sent = RECORDED[104]!.body['event'] as Json
    const r = await read(`/events/${sent['uuid']}`)
    const name = r.body.event.context.transaction_name as string
    expect(name).toHaveLength(1024)
    expect(name.endsWith('…[truncated]')).toBe(true)
    expect(name.startsWith('GET /aaaa')).toBe(true)
  })

  it('stores nothing of a batch it rejected', async () => {
    const lines = (RECORDED[40]!.body['ndjson'] as { event: Json }[]).map((l) => l.event)
    for (const event of lines) {
      expect((await read(`/events/${event['uuid']}`)).status).toBe(404)
    }
  })

  it('counts the Flask request that answered 500 as a failed transaction', async () => {
    // The recording is from 2026-11-24: widen the default 24-hour window back to it.
    const r = await read('/transactions?since=2026-11-24T00:00:00Z&limit=200')
    const boom = r.body.transactions.find((t: Json) => t['name'] === 'GET /boom')
    expect(boom).toMatchObject({ count: 1, error_count: 1 })
  })
}

/** Sends one recorded request as the client did: same path, headers and body (gzip NDJSON re-encoded). */
async function replay(baseUrl: string, recorded: Recorded, key: string) {
  const headers: Record<string, string> = {
    ...recorded.headers,
    Authorization: `Bearer ${key}`,
    'X-Forwarded-For': freshIp(),
  }
  let body: string | Uint8Array = JSON.stringify(recorded.body)
  const lines = recorded.body['ndjson'] as unknown[] | undefined
  if (lines) {
    const text = `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`
    body = headers['Content-Encoding'] === 'gzip' ? gzipSync(text) : text
  }
  const response = await fetch(`${baseUrl}${recorded.path}`, { method: 'POST', headers, body })
  const text = await response.text()
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as Json) }
}
