import { randomUUID } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { ADMIN_TOKEN, createClient, freshIp, type Harness } from '@tis/test-utils/server'
import { expect, it } from 'vitest'
import { batchProject, type Fields, logLine, ndjson } from './batch-helpers'
import { describeBatchSizes } from './batch-size-suite'

/**
 * `POST /api/v1/ingest_events/batch` end to end, all or nothing as Logister answers it: 202 when
 * every line is stored (or already was), 422 with per-line results and nothing stored, a
 * whole-request 429 that takes none of the window; then the size caps.
 */
export function describeBatchIngest(harness: () => Harness) {
  const error = (message: string): Fields => ({ ...logLine(message), event_type: 'error' })
  const span = () => ({
    event_type: 'span',
    name: 'GET /x',
    event_id: randomUUID(),
    trace_id: randomUUID().replaceAll('-', ''),
    span_id: randomUUID().slice(0, 16),
  })
  const checkIn = (slug: string) => ({
    event_type: 'check_in',
    message: 'job ok',
    event_id: randomUUID(),
    check_in_slug: slug,
  })
  const deploying = (message: string) =>
    logLine(message, { release: '1.2.3', repository: 'acme/app', commit_sha: 'abcdef1234567' })

  it('stores every line and answers 202 with Logister’s body, echoing X-Logister-Batch-Id', async () => {
    const s = await batchProject(harness())
    const lines = [logLine('one'), error('Batch boom'), span(), checkIn('nightly')]
    const batchId = 'a'.repeat(64)
    const r = await s.post(ndjson(lines), { 'X-Logister-Batch-Id': batchId })
    expect(r.status).toBe(202)
    expect(r.headers.get('x-ratelimit-remaining')).toBe('21')
    expect(r.body).toEqual({
      schema_version: 1,
      batch_id: batchId,
      status: 'accepted',
      accepted: 4,
      duplicates: 0,
      results: lines.map((line, index) => ({
        index,
        status: 'accepted',
        type: line['event_type'] === 'span' ? 'span' : 'event',
        id: line['event_id'],
        legacy_id: expect.any(Number),
        duplicate: false,
      })),
    })
    expect(await s.counts()).toMatchObject({ events: 3, spans: 1, issues: 1, monitors: 1 })
    const messages = (await s.get('/events')).body.events.map((e: Fields) => e['message'])
    expect(messages.sort()).toEqual(['Batch boom', 'job ok', 'one'])
    // Without a usable header, the batch gets an id of its own.
    const own = await s.post(ndjson([logLine('two')]), { 'X-Logister-Batch-Id': 'x y' })
    expect(own.body.batch_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/)
  })

  it('one invalid line among valid ones: 422, per-line results, nothing stored', async () => {
    const s = await batchProject(harness())
    const before = await s.counts()
    const body = [
      JSON.stringify({ event: error('Rolled back error') }),
      JSON.stringify({ event: checkIn('rolled-back-job') }),
      JSON.stringify({ event: deploying('rolled back deploy') }),
      '{not json',
      JSON.stringify({ event: { event_type: 'log', message: 'no id' } }),
      JSON.stringify({ event: { ...span(), duration_ms: -5 } }),
      JSON.stringify({ event: logLine('fine') }),
    ].join('\n')
    const r = await s.post(body)
    expect(r.status).toBe(422)
    expect(r.headers.get('x-ratelimit-limit')).toBe('25')
    expect(r.body).toMatchObject({
      schema_version: 1,
      batch_id: expect.any(String),
      status: 'rejected',
      rejected: 3,
      rolled_back: 4,
    })
    const rolledBack = {
      status: 'rolled_back',
      type: 'event',
      errors: ['Batch was rolled back because another envelope was invalid'],
    }
    const [a, b, c, d, e, f, g] = r.body.results
    expect([a, b, c, g]).toEqual([0, 1, 2, 6].map((index) => ({ index, ...rolledBack })))
    expect(d).toEqual({
      index: 3,
      status: 'rejected',
      type: 'event',
      errors: ['param is missing or the value is empty: event (line 4 is not valid JSON)'],
    })
    expect(e).toEqual({
      index: 4,
      status: 'rejected',
      type: 'event',
      errors: ['event_id (or uuid) is required in a batch'],
    })
    expect(f).toMatchObject({ index: 5, status: 'rejected', type: 'span' })
    expect(f.errors.join()).toMatch(/duration_ms/)
    expect(await s.counts()).toEqual(before)
    expect((await s.get('/monitors')).body.monitors).toEqual([])
  })

  it('an event type a mobile token may not send: 422 for that line, nothing stored', async () => {
    const c = createClient(harness().url)
    const project = await c.createProject(ADMIN_TOKEN, 'android')
    const key = await c.createKey(project.id)
    const minted = await c.api('POST', '/api/v1/mobile_ingest_tokens', {
      apiKey: key.token,
      json: {
        mobile_ingest_token: {
          platform: 'android',
          service: 'com.acme.app',
          environment: 'production',
          allowed_event_types: ['log'],
        },
      },
    })
    expect(minted.status).toBe(201)
    const r = await c.api('POST', '/api/v1/ingest_events/batch', {
      token: minted.body.token,
      text: ndjson([logLine('allowed'), span()]),
      headers: { 'Content-Type': 'application/x-ndjson' },
    })
    expect(r.status).toBe(422)
    expect(r.body.results.map((l: Fields) => [l['status'], l['type'], l['errors']])).toEqual([
      ['rolled_back', 'event', ['Batch was rolled back because another envelope was invalid']],
      ['rejected', 'span', ['Forbidden: this token may not send span events']],
    ])
    const [row] = await harness().query<{ n: number }>(
      'select count(*)::int as n from events where project_id = $1',
      [project.id],
    )
    expect(row?.n).toBe(0)
  })

  it('an event_id another project already used: 422 for that line, nothing stored', async () => {
    const other = await batchProject(harness())
    const taken = logLine('taken')
    expect((await other.post(ndjson([taken]))).status).toBe(202)
    const s = await batchProject(harness())
    const r = await s.post(ndjson([error('New error'), { ...taken, message: 'mine' }]))
    expect(r.status).toBe(422)
    expect(r.body.results.map((l: Fields) => [l['status'], l['errors']])).toEqual([
      ['rolled_back', ['Batch was rolled back because another envelope was invalid']],
      ['rejected', ['event_id is already used by another project']],
    ])
    expect(await s.counts()).toMatchObject({ events: 0, issues: 0 })
  })

  it('a batch of duplicates: 202, every line a duplicate, nothing written again', async () => {
    const s = await batchProject(harness())
    const lines = [error('Dup error'), logLine('dup log')]
    expect((await s.post(ndjson(lines))).status).toBe(202)
    const again = await s.post(ndjson(lines.map((l) => ({ ...l, message: 'changed' }))))
    expect(again.status).toBe(202)
    expect(again.body).toMatchObject({ status: 'accepted', accepted: 2, duplicates: 2 })
    expect(again.body.results.map((l: Fields) => [l['id'], l['duplicate']])).toEqual(
      lines.map((l) => [l['event_id'], true]),
    )
    expect(await s.counts()).toMatchObject({ events: 2, issues: 1 })
    const issues = (await s.get('/issues')).body.issues
    expect(issues).toEqual([expect.objectContaining({ title: 'Dup error', count: 1 })])
  })

  it('a batch partly duplicates: 202 with the right counts, only the new lines stored', async () => {
    const s = await batchProject(harness())
    const old = [logLine('old 1'), logLine('old 2')]
    await s.post(ndjson(old))
    const fresh = [logLine('new 1'), logLine('new 2'), logLine('new 3')]
    // A line repeated inside the batch is a duplicate of the first, too.
    const r = await s.post(ndjson([fresh[0]!, old[0]!, fresh[1]!, old[1]!, fresh[2]!, fresh[0]!]))
    expect(r.status).toBe(202)
    expect(r.body).toMatchObject({ accepted: 6, duplicates: 3 })
    expect(r.body.results.map((l: Fields) => l['duplicate'])).toEqual([
      false,
      true,
      false,
      true,
      false,
      true,
    ])
    expect((await s.counts()).events).toBe(5)
  })

  it('a batch larger than what is left of the window: 429, nothing stored, window not taken', async () => {
    const s = await batchProject(harness())
    // The suite allows 25 requests per key per hour; 20 are used here.
    const first = await s.post(ndjson(Array.from({ length: 20 }, (_, i) => logLine(`r${i}`))))
    expect(first.headers.get('x-ratelimit-remaining')).toBe('5')
    const six = await s.post(ndjson(Array.from({ length: 6 }, (_, i) => logLine(`s${i}`))))
    expect(six.status).toBe(429)
    expect(six.body).toEqual({
      error: 'Rate limit exceeded',
      limit: 25,
      window_seconds: 3600,
      retry_after: expect.any(Number),
    })
    expect(Number(six.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(six.headers.get('x-ratelimit-remaining')).toBe('5')
    expect((await s.counts()).events).toBe(20)
    // The five units left are still there: five lines fit exactly.
    const five = await s.post(ndjson(Array.from({ length: 5 }, (_, i) => logLine(`t${i}`))))
    expect(five.status).toBe(202)
    expect(five.headers.get('x-ratelimit-remaining')).toBe('0')
    expect((await s.post(ndjson([logLine('late')]))).status).toBe(429)
    expect((await s.counts()).events).toBe(25)
  })

  it('a batch with more lines than a whole window: 413, so that clients split it', async () => {
    const s = await batchProject(harness())
    expect((await s.setLimit(3)).status).toBe(200)
    const r = await s.post(ndjson([logLine('a'), logLine('b'), logLine('c'), logLine('d')]))
    expect(r.status).toBe(413)
    expect(r.body.error).toBe(
      'batch has 4 envelopes; this credential may send at most 3 per 3600-second window',
    )
    expect((await s.post(ndjson([logLine('a'), logLine('b'), logLine('c')]))).status).toBe(202)
  })

  it('takes gzip and plain bodies, application/ndjson too; refuses other types', async () => {
    const s = await batchProject(harness())
    const zipped = await s.post(gzipSync(ndjson([logLine('z1'), logLine('z2')])), {
      'Content-Encoding': 'gzip',
    })
    expect(zipped).toMatchObject({ status: 202, body: { accepted: 2 } })
    const plain = await s.post(ndjson([logLine('p1')]), { 'Content-Type': 'application/ndjson' })
    expect(plain).toMatchObject({ status: 202, body: { accepted: 1 } })
    const json = await s.post(JSON.stringify({ event: logLine('x') }), {
      'Content-Type': 'application/json',
    })
    expect(json.status).toBe(415)
    expect(json.body.error).toMatch(/^Content-Type must be application\/x-ndjson/)
    const brotli = await s.post(ndjson([logLine('b')]), { 'Content-Encoding': 'br' })
    expect(brotli.status).toBe(415)
    const broken = await s.post('not gzip', { 'Content-Encoding': 'gzip' })
    expect(broken).toMatchObject({ status: 400, body: { error: 'the body is not valid gzip' } })
    const empty = await s.post('\n\n')
    expect(empty).toMatchObject({ status: 400 })
    expect(empty.body.error).toMatch(/^param is missing or the value is empty: event/)
    expect((await s.counts()).events).toBe(3)
  })

  it('answers 401 without a valid key', async () => {
    const r = await fetch(`${harness().url}/api/v1/ingest_events/batch`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-ndjson', 'X-Forwarded-For': freshIp() },
      body: ndjson([logLine('x')]),
    })
    expect(r.status).toBe(401)
  })

  describeBatchSizes(harness)
}
