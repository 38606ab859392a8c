import { ADMIN_TOKEN } from '@tis/test-utils/server'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeFuzz, PARAMETERS, RUNS, TIMEOUT } from './fuzz/describe-fuzz'
import {
  batchPlan,
  checkInPlan,
  clientCheckInPlan,
  clientEventPlan,
  deploymentPlan,
  ingestEventPlan,
  mobileTokenPlan,
} from './fuzz/plans'
import { createFuzzRun, type FuzzRun } from './fuzz/runner'
import { type FuzzServer, startFuzzServer } from './fuzz/server'

describeFuzz('fuzzing the ingestion endpoints', [
  ['POST /api/v1/ingest_events', ingestEventPlan],
  ['POST /api/v1/ingest_events/batch', batchPlan],
  ['POST /api/v1/check_ins', checkInPlan],
  ['POST /api/v1/deployments', deploymentPlan],
  ['POST /api/v1/mobile_ingest_tokens', mobileTokenPlan],
  ["POST /api/v1/ingest_events, Logister clients' bodies (must be accepted)", clientEventPlan],
  ["POST /api/v1/check_ins, Logister clients' bodies (must be accepted)", clientCheckInPlan],
])

// A cap of 5 requests per window: after the first few cases of each endpoint every answer is a
// 429, whose body and headers (Retry-After, X-RateLimit-*) are checked like any other answer;
// a batch that does not fit in what is left is a whole 429 (more lines than the cap: 413).
describe('fuzzing the ingestion endpoints at their rate limit', () => {
  let fuzz: FuzzServer
  let run: FuzzRun
  beforeAll(async () => {
    fuzz = await startFuzzServer({ SERVICE_PUBLIC_API_RATE_LIMIT_REQUESTS: '5' })
    run = await createFuzzRun(fuzz)
  })
  afterAll(() => fuzz?.close())

  it(
    'answers 429 of the documented shape, and stores nothing it refused',
    async () => {
      const plans = fc.oneof(
        ingestEventPlan,
        batchPlan,
        checkInPlan,
        deploymentPlan,
        mobileTokenPlan,
        clientEventPlan,
        clientCheckInPlan,
      )
      const parameters = { ...PARAMETERS, numRuns: Math.max(200, Math.ceil(RUNS / 5)) }
      await fc.assert(fc.asyncProperty(plans, run.check), parameters)
      expect(await run.verify()).toEqual([])
      expect([...run.statuses.keys()].filter((k) => k.endsWith(' 429'))).not.toEqual([])
    },
    TIMEOUT,
  )
})

/**
 * Minimal reproducers of the bugs the fuzzer found, failing until they are fixed (then `it.fails`
 * itself fails: turn each into a plain `it` and delete its entry in fuzz/known-bugs.ts).
 */
describe('bugs found by fuzzing (fixed; kept as regression tests)', () => {
  let fuzz: FuzzServer
  beforeAll(async () => {
    fuzz = await startFuzzServer()
  })
  afterAll(() => fuzz?.close())

  const post = (path: string, body: string, type = 'application/json') =>
    fuzz.send({
      method: 'POST',
      path,
      headers: { 'X-Api-Key': fuzz.fixture.apiKey, 'Content-Type': type },
      body,
    })
  const get = (path: string) =>
    fuzz.send({
      method: 'GET',
      path: `/api/v1/projects/${fuzz.fixture.projectId}${path}`,
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    })
  /** 201 or a 422 naming the field: anything but the 500 seen. */
  const acceptedOr422 = (status: number) => expect([201, 422]).toContain(status)

  // B1. Validation accepts years 0001–9999 and offsets up to ±15:59 (docs/validation.md: "year
  // 0000 and larger offsets are 422s rather than failed writes"), but the UTC instant of
  // 9999-12-31T23:59:60Z (leap second) or 0001-01-01T00:00:00+15:59 is outside 0001–9999; the
  // store sends toISOString() ("+010000-01-01T00:00:00.000Z", "0000-12-31T08:01:00.000Z") and
  // PostgreSQL refuses it: 500 instead of 201/422.
  it.each([
    [
      '/api/v1/ingest_events',
      '{"event":{"event_type":"log","message":"m","occurred_at":"9999-12-31T23:59:60Z"}}',
    ],
    [
      '/api/v1/ingest_events',
      '{"event":{"event_type":"log","message":"m","occurred_at":"0001-01-01T00:00:00+15:59"}}',
    ],
    ['/api/v1/check_ins', '{"check_in":{"slug":"b1","occurred_at":"0001-01-01T00:00:00+15:59"}}'],
    [
      '/api/v1/deployments',
      '{"deployment":{"release":"b1","repository":"o/n","commit_sha":"abcdef1","deployed_at":"9999-12-31T23:59:59-15:59"}}',
    ],
  ])('B1: POST %s %s answers 201 or 422, not 500', async (path, body) => {
    acceptedOr422((await post(path, body)).status)
  })

  it('B1: a batch with a line whose occurred_at is 9999-12-31T23:59:60Z answers 202 or 422, not 500', async () => {
    const line = (id: string, extra: string) =>
      `{"event":{"event_id":"${id}","event_type":"log","message":"m"${extra}}}`
    const body = [
      line('0190b1c2-3d4e-7f80-9a1b-2c3d4e5f60b1', ''),
      line('0190b1c2-3d4e-7f80-9a1b-2c3d4e5f60b2', ',"occurred_at":"9999-12-31T23:59:60Z"'),
    ].join('\n')
    const reply = await post('/api/v1/ingest_events/batch', body, 'application/x-ndjson')
    expect([202, 422]).toContain(reply.status)
  })

  // B2. The same instants as since/until of a read: 500 instead of 200 or 422.
  it.each([
    ['/events?until=0001-01-01T00%3A00%3A00%2B15%3A59'],
    ['/transactions?until=9999-12-31T23%3A59%3A59-15%3A59'],
    ['/traces?since=9999-12-31T23%3A59%3A60Z'],
  ])('B2: GET …%s answers 200 or 422, not 500', async (path) => {
    expect([200, 422]).toContain((await get(path)).status)
  })

  // B3. A NUL character (%00) in a read filter or path id reaches PostgreSQL, which refuses it
  // ("invalid byte sequence for encoding UTF8: 0x00"): 500 instead of 200 (no match), 404 or 422.
  it.each([
    ['/issues?release=%00'],
    ['/traces?q=%00'],
    ['/traces/%00'],
    ['/events?trace_id=a%00b'],
  ])('B3: GET …%s answers 200, 404 or 422, not 500', async (path) => {
    expect([200, 404, 422]).toContain((await get(path)).status)
  })

  // B5. A span whose started_at is 0001-01-01T00:00:00+15:59 is accepted (201; events with the
  // same date get B1's 500) and stored as "0001-12-31 08:01:00+00 BC"; reading it back gives an
  // Invalid Date, so every later GET of its trace, and of a trace list showing it, is a 500
  // (reads.ts spanJson: startedAt.toISOString()). One bad span breaks the trace view for good.
  it('B5: a span stored with a BC started_at leaves its trace readable', async () => {
    const span = {
      event: {
        event_type: 'span',
        name: 'b5',
        kind: 'server',
        trace_id: 'b5-trace',
        span_id: 'b5',
        started_at: '0001-01-01T00:00:00+15:59',
      },
    }
    acceptedOr422((await post('/api/v1/ingest_events', JSON.stringify(span))).status)
    expect((await get('/traces/b5-trace')).status).not.toBe(500)
    expect((await get('/traces?kind=server')).status).not.toBe(500)
  })
  // B4 (fixed). transactions and metrics default `since` to `until` minus their window (24 h for
  // transactions). An `until` less than that after 0001-01-01T00:00:00Z is valid, but the
  // derived `since` lies before year 1 and PostgreSQL refuses it ("date/time field value out of
  // range: 0000-12-31T00:00:00.000Z"): 500 instead of 200 or 422.
  it.each([
    ['/transactions?until=0001-01-01T00%3A00%3A00Z'],
    ['/metrics?name=x&until=0001-01-01T00%3A00%3A00-15%3A59'],
  ])('B4: GET …%s answers 200 or 422, not 500', async (path) => {
    expect([200, 422]).toContain((await get(path)).status)
  })

  // B6 (fixed). A NUL character in a string field of a management request reaches PostgreSQL ("invalid
  // byte sequence for encoding UTF8: 0x00"): 500 instead of a 422 naming the field (or a 201 with
  // the character dropped). Ingestion stores NUL in events fine (JSON payloads escape it).
  it.each([
    ['/api/v1/users', '{"user":{"email":"a\\u0000@b.test"}}'],
    ['/api/v1/projects/:id/api_keys', '{"api_key":{"name":"\\u0000"}}'],
    ['/api/v1/projects/:id/members', '{"member":{"email":"\\u0000"}}'],
  ])('B6: POST %s %s answers 201 or 422, not 500', async (path, body) => {
    const reply = await fuzz.send({
      method: 'POST',
      path: path.replace(':id', fuzz.fixture.sideProjectId),
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body,
    })
    expect([201, 422]).toContain(reply.status)
  })
  // B7 (fixed). The same for a mobile token request: a NUL in `release`, `session_id`, `service` or
  // `environment` reaches PostgreSQL: 500 instead of 201 or a 422 naming the field.
  it('B7: POST /api/v1/mobile_ingest_tokens with release "\\u0000" answers 201 or 422, not 500', async () => {
    const body = JSON.stringify({
      mobile_ingest_token: {
        platform: 'android',
        service: 'com.fuzz.app',
        environment: 'production',
        release: '\u0000',
      },
    })
    acceptedOr422((await post('/api/v1/mobile_ingest_tokens', body)).status)
  })
  // B8. A NUL character in an object key inside an unknown deployment field reaches the jsonb
  // payload, which PostgreSQL refuses ("unsupported Unicode escape sequence"): 500 instead of
  // 201 (key kept or cleaned) or 422. Found by the deployments property at 10,000 cases
  // (`{"deployment":{…,"":{"a\u0000b":…}}}`); the same key in an event's context is stored fine.
  it('B8: POST /api/v1/deployments with a NUL in a key of an unknown field answers 201 or 422, not 500 (fixed)', async () => {
    const deployment = {
      release: 'b8',
      repository: 'o/n',
      commit_sha: 'abcdef1',
      '': { 'a\u0000b': 1 },
    }
    acceptedOr422((await post('/api/v1/deployments', JSON.stringify({ deployment }))).status)
  })
})
